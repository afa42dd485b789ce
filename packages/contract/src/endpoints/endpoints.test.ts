import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { Playlist, Song, User } from '../schemas.js';
import * as schemas from '../schemas.js';
import {
  endpointList,
  endpoints,
  fillPath,
  openApiPath,
  successStatus,
  type BodyInputOf,
  type ParamsOf,
  type SuccessOf,
} from './index.js';

const schemaByName = schemas as unknown as Record<string, unknown>;

describe('endpoint declarations', () => {
  it('name only schemas the contract exports', () => {
    for (const { id, spec } of endpointList) {
      const names = [spec.params, spec.query, spec.body, spec.form?.fields, ...Object.values(spec.responses)];
      for (const name of names) {
        if (typeof name !== 'string' || name === 'empty' || name === 'binary') continue;
        expect(schemaByName[name], `${id}: ${name}`).toBeInstanceOf(z.ZodType);
      }
    }
  });

  it('declare each method and path once', () => {
    const keys = endpointList.map(({ spec }) => `${spec.method} ${spec.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('give every endpoint exactly one way to carry a body', () => {
    for (const { id, spec } of endpointList) {
      expect(spec.body !== undefined && spec.form !== undefined, id).toBe(false);
      if (spec.method === 'GET') expect(spec.body ?? spec.form, id).toBeUndefined();
    }
  });

  it('name path parameters that the params schema validates', () => {
    for (const { id, spec } of endpointList) {
      const names = [...spec.path.matchAll(/:(\w+)/g)].map((match) => match[1]);
      if (spec.params === undefined) {
        expect(spec.path.startsWith('/media/') || names.length === 0, id).toBe(true);
        continue;
      }
      const schema = schemaByName[spec.params] as z.ZodObject;
      expect(Object.keys(schema.shape).sort(), id).toEqual(names.sort());
    }
  });

  it('fill and convert paths', () => {
    expect(fillPath(endpoints.playlists.addSong.path, { playlistId: 3, songId: 40 })).toBe('/api/playlists/3/songs/40');
    expect(fillPath(endpoints.users.byUsername.path, { username: 'a b/c' })).toBe('/api/users/username/a%20b%2Fc');
    expect(() => fillPath(endpoints.songs.get.path, {})).toThrow(/missing path parameter id/);
    expect(openApiPath(endpoints.playlists.addSong.path)).toBe('/api/playlists/{playlistId}/songs/{songId}');
    expect(successStatus(endpoints.playlists.create)).toBe(201);
    expect(successStatus(endpoints.likes.like)).toBe(204);
  });

  it('type every side from the declaration', () => {
    expectTypeOf<SuccessOf<typeof endpoints.playlists.get>>().toEqualTypeOf<Playlist>();
    expectTypeOf<SuccessOf<typeof endpoints.songs.inPlaylist>>().toEqualTypeOf<Song[]>();
    expectTypeOf<SuccessOf<typeof endpoints.auth.login>>().toEqualTypeOf<User>();
    expectTypeOf<SuccessOf<typeof endpoints.songs.remove>>().toEqualTypeOf<string>();
    expectTypeOf<SuccessOf<typeof endpoints.likes.like>>().toEqualTypeOf<undefined>();
    expectTypeOf<SuccessOf<typeof endpoints.downloads.song, Blob>>().toEqualTypeOf<Blob>();
    expectTypeOf<ParamsOf<typeof endpoints.playlists.addSong>>().toEqualTypeOf<{
      playlistId: number;
      songId: number;
    }>();
    expectTypeOf<BodyInputOf<typeof endpoints.payments.checkout>>().toEqualTypeOf<{ plan: 'monthly' | 'yearly' }>();
  });
});
