import { ErrorCodes, RequestMessages } from '@tonearm/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDialect } from '../../test/dialects.js';
import { makeAdmin, type TestUser } from '../../test/factories.js';
import { errorOf } from '../../test/harness.js';
import { findNul } from './nul-guard.js';

describe('findNul', () => {
  it('names the first string value or key holding U+0000, however deep', () => {
    expect(findNul({ a: 'ok', b: ['x', 'y\u0000'] })).toBe('b.1');
    expect(findNul({ 'k\u0000': 1 })).toBe('k\u0000');
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 100_000; i += 1) deep = [deep];
    expect(findNul(deep)).toMatch(/^0(\.0)*$/);
    expect(findNul({ a: 1, b: null, c: 'fine' })).toBeNull();
  });
});

describeEachDialect('bad input answers on %s', (t) => {
  let admin: TestUser;

  beforeAll(async () => {
    admin = await makeAdmin(t);
  });

  it.each([
    ['GET', '/api/songs/2147483648'],
    ['GET', '/api/payment/orders/99999999999'],
    ['GET', '/api/songs?artistId=2147483648'],
    ['PUT', '/api/playlists/1/songs/2147483648'],
    ['DELETE', '/api/users/2147483648'],
  ])('%s %s: an id past 2^31-1 is a 400 validation error', async (method, url) => {
    const response = await t.as(admin).inject({ method, url });
    expect(response.statusCode, response.body).toBe(400);
    expect(errorOf(response.body)).toMatchObject({
      code: ErrorCodes.validation,
      message: RequestMessages.idOutOfRange,
    });
  });

  it('refuses ids past 2^31-1 in JSON bodies and multipart fields', async () => {
    const play = await t.as(admin).post('/api/plays', { songId: 2_147_483_648 });
    expect(play.statusCode).toBe(400);
    expect(errorOf(play.body)).toMatchObject({ field: 'songId', message: RequestMessages.idOutOfRange });
    const playlist = await t.as(admin).form('POST', '/api/playlists', { name: 'List', songs: '[2147483648]' });
    expect(playlist.statusCode, playlist.body).toBe(400);
  });

  it('refuses an offset past the bound', async () => {
    const response = await t.as(admin).get('/api/songs?offset=2147483648');
    expect(response.statusCode).toBe(400);
    expect(errorOf(response.body).message).toBe(RequestMessages.offsetOutOfRange);
  });

  it.each([
    ['a JSON body', { method: 'POST', url: '/api/auth/login', payload: { username: 'nul\u0000x', password: 'p' } }],
    ['a query string', { method: 'GET', url: '/api/search?q=a%00b' }],
    ['a path parameter', { method: 'GET', url: '/api/users/username/a%00b' }],
  ] as const)('refuses U+0000 in %s with a 400 naming the field', async (_where, request) => {
    const response = await t.as(admin).inject(request);
    expect(response.statusCode, response.body).toBe(400);
    expect(errorOf(response.body)).toMatchObject({
      code: ErrorCodes.validation,
      message: RequestMessages.nulCharacter,
    });
  });

  it('refuses U+0000 in a multipart text field', async () => {
    const response = await t.as(admin).form('POST', '/api/playlists', { name: 'nul\u0000name' });
    expect(response.statusCode, response.body).toBe(400);
    expect(errorOf(response.body)).toEqual({
      code: ErrorCodes.validation,
      message: RequestMessages.nulCharacter,
      field: 'name',
    });
  });

  it.each([
    ['foo', '{}', 415, ErrorCodes.unsupportedMediaType, RequestMessages.unsupportedContentEncoding],
    ['gzip', '{"not":"gzip"}', 400, ErrorCodes.validation, RequestMessages.undecodableBody],
  ])('answers Content-Encoding %s in our error shape (%s)', async (encoding, payload, status, code, message) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json', 'content-encoding': encoding },
      payload,
    });
    expect(response.statusCode).toBe(status);
    expect(errorOf(response.body)).toEqual({ code, message });
  });

  it.each(['%201', '1%20', '0001', '0x10', '1e0', '+1'])(
    'GET /api/songs/%s: only a canonical decimal id is an id',
    async (id) => {
      const response = await t.as(admin).get(`/api/songs/${id}`);
      expect(response.statusCode, response.body).toBe(400);
      expect(errorOf(response.body)).toMatchObject({
        code: ErrorCodes.validation,
        message: RequestMessages.idOutOfRange,
      });
    },
  );

  it('keeps no control character, U+FFFE or bidirectional override in a name', async () => {
    const created = await t
      .as(admin)
      .form('POST', '/api/playlists', { name: 'Mix\u001b]0;pwned\u0007\u202e\uFFFE\ttape' });
    expect(created.statusCode, created.body).toBe(201);
    const playlist = z.object({ name: z.string() }).parse(JSON.parse(created.body));
    expect(playlist.name).toBe('Mix]0;pwned tape');
    const onlyControls = await t.as(admin).form('POST', '/api/playlists', { name: ' \u001b\u202e\u0007 ' });
    expect(onlyControls.statusCode).toBe(400);
    expect(errorOf(onlyControls.body)).toMatchObject({ field: 'name', message: 'Name is required' });
  });
});
