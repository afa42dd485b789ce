import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { ErrorCodes, ServerMessages } from '@tonearm/contract';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDialect, type AppSuiteOptions } from '../test/dialects.js';
import { createTestDatabase, errorOf } from '../test/harness.js';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

let webDist: string;

/** The app serves a built web app of its own: a temp dir made first. */
const withWebApp: AppSuiteOptions = {
  prepare: async () => {
    webDist = await mkdtemp(path.join(tmpdir(), 'tonearm-web-'));
    await mkdir(path.join(webDist, 'assets'));
    await writeFile(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
    await writeFile(path.join(webDist, 'assets', 'index-abc123.js'), 'console.log("app")');
    await writeFile(path.join(webDist, 'sw.js'), 'self.addEventListener("fetch", () => {})');
    return { config: { webDist } };
  },
};

describeEachDialect('app core on %s', withWebApp, (t) => {
  afterAll(async () => {
    await rm(webDist, { recursive: true, force: true });
  });

  it('GET /healthz answers ok with the dialect after a database round trip', async () => {
    const response = await t.as(null).get('/healthz');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', db: t.dialect });
  });

  it.each([
    ['GET', '/api/nothing-here'],
    ['POST', '/api/nothing-here'],
    ['GET', '/media/audio/x/y/z'],
    ['GET', '/artists/1/nothing'],
    ['DELETE', '/dashboard'],
  ])('%s %s answers a JSON 404, even to a browser', async (method, url) => {
    const response = await t.app.inject({ method: method as 'GET', url, headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(errorOf(response.body)).toEqual({ code: ErrorCodes.notFound, message: ServerMessages.notFound });
  });

  it.each(['/', '/dashboard', '/dashboard/songs', '/no/such/page'])(
    'GET %s from a browser renders the web app (index.html, revalidated)',
    async (url) => {
      const response = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html,*/*' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<div id="root">');
    },
  );

  it('serves hashed assets as immutable and other files as revalidated', async () => {
    const asset = await t.as(null).get('/assets/index-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const worker = await t.as(null).get('/sw.js');
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['cache-control']).toBe('no-cache');
    const missing = await t.app.inject({ method: 'GET', url: '/assets/gone-000.js', headers: { accept: '*/*' } });
    expect(missing.statusCode).toBe(404);
  });

  it('sends a strict Content-Security-Policy and a request id', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("img-src 'self' blob: data:");
    expect(csp).toContain("media-src 'self' blob: data:");
    expect(csp).toContain("worker-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('compresses large JSON answers', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/docs/openapi.json',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.headers['content-encoding']).toBe('gzip');
  });

  it('publishes OpenAPI with the auth and users paths', async () => {
    const response = await t.as(null).get('/api/docs/openapi.json');
    expect(response.statusCode).toBe(200);
    const doc = response.json<{ openapi: string; paths: Record<string, Record<string, unknown>> }>();
    expect(doc.openapi).toMatch(/^3\./);
    for (const [route, method] of [
      ['/api/auth/register', 'post'],
      ['/api/auth/login', 'post'],
      ['/api/auth/logout', 'post'],
      ['/api/auth/me', 'get'],
      ['/api/auth/ping', 'get'],
      ['/api/users', 'get'],
      ['/api/users/id/{id}', 'get'],
      ['/api/users/username/{username}', 'get'],
      ['/api/users/{id}', 'put'],
      ['/api/users/{id}', 'delete'],
    ] as const) {
      expect(doc.paths[route]?.[method], `${method} ${route}`).toBeDefined();
    }
  });
});

describe('unexpected errors', () => {
  it('answer 500 with the generic message and log the error with the request id, never a stack', async () => {
    const database = await createTestDatabase('sqlite');
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const config = { ...loadConfig({ NODE_ENV: 'test', DATA_DIR: database.dataDir }), webDist: null };
    const app = await buildApp({ config, db: database.db, dialect: 'sqlite', logger: pino({ level: 'error' }, sink) });
    app.get('/api/boom', { config: { access: 'public' } }, () => {
      throw new Error('secret internals at /srv/db.ts:42');
    });
    app.get(
      '/api/bad-shape',
      { config: { access: 'public' }, schema: { response: { 200: z.object({ n: z.number() }) } } },
      () => ({ n: 'nope' }) as never,
    );
    try {
      for (const url of ['/api/boom', '/api/bad-shape']) {
        const response = await app.inject({ method: 'GET', url });
        expect(response.statusCode).toBe(500);
        expect(errorOf(response.body)).toEqual({ code: ErrorCodes.internal, message: ServerMessages.internalError });
        expect(response.body).not.toContain('secret');
        expect(response.body).not.toContain('at ');
        const requestId = String(response.headers['x-request-id']);
        expect(lines.some((line) => line.includes(requestId) && line.includes('"level":50'))).toBe(true);
      }
    } finally {
      await app.close();
      await database.destroy();
    }
  });
});

describeEachDialect('a write racing a deletion on %s', { fresh: 'each' }, (t) => {
  it('answers 409 with a clear message when a foreign key no longer exists', async () => {
    t.app.post('/api/race', { config: { access: 'public' } }, async () => {
      await t.db
        .insertInto('likes')
        .values({ user_id: 999_999, song_id: 999_999, created_at: new Date().toISOString() })
        .execute();
      return { ok: true };
    });
    const response = await t.as(null).post('/api/race');
    expect(response.statusCode).toBe(409);
    expect(errorOf(response.body)).toEqual({ code: ErrorCodes.conflict, message: ServerMessages.referenceGone });
  });
});
