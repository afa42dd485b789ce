import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { endpoint, endpoints, type Artist, type Playlist, type SongsDataResponse } from '@tonearm/contract';
import Fastify, { type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { App } from './app-types.js';
import { route, routeSchema, type HandlerResult, type StreamedResult } from './endpoint-route.js';
import { JsonStream } from './json-stream.js';

/** Answers that no contract endpoint needs in this exact form, declared here to try route() on each kind. */
const made = endpoint({ method: 'POST', path: '/t/made', access: 'public', responses: { 201: { text: 'Made it' } } });
const gone = endpoint({
  method: 'DELETE',
  path: '/t/gone/:id',
  access: 'session',
  params: 'IdParam',
  body: 'DeleteUserRequest',
  bodyOptional: true,
  responses: { 204: 'empty' },
});
const created = endpoint({
  method: 'POST',
  path: '/t/created',
  access: 'admin',
  body: 'PlayRequest',
  responses: { 201: 'WebhookAck' },
});
const bytes = endpoint({ method: 'GET', path: '/t/bytes', access: 'public', responses: { 200: 'binary' } });
const artistList = endpoint({ method: 'GET', path: '/t/artists', access: 'public', responses: { 200: 'ArtistList' } });
const songsData = endpoint({
  method: 'GET',
  path: '/t/data',
  access: 'public',
  responses: { 200: 'SongsDataResponse' },
});

/** An artist whose JSON is about `songs` × 7 characters long (so a chunk of one can outgrow the stream's glued parts). */
const artist = (id: number, songs = 1): Artist => ({
  id,
  name: `Artist ${id}`,
  image: null,
  songs: Array.from({ length: songs }, (_, i) => 100_000 + i),
});

/** The chunks, one after the other, from an async generator (as a database read would give them). */
function chunksOf<T>(...chunks: T[][]): () => AsyncGenerator<T[]> {
  return async function* chunked() {
    for (const chunk of chunks) {
      await Promise.resolve();
      yield chunk;
    }
  };
}

let app: App | undefined;

/** A bare Fastify app with the zod type provider, as buildApp sets it up, and the options of each route it gets. */
function bareApp(): { app: App; routes: RouteOptions[] } {
  const routes: RouteOptions[] = [];
  const instance = Fastify().withTypeProvider<ZodTypeProvider>();
  instance.setValidatorCompiler(validatorCompiler);
  instance.setSerializerCompiler(serializerCompiler);
  instance.addHook('onRoute', (options) => {
    routes.push(options);
  });
  app = instance;
  return { app: instance, routes };
}

afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('route()', () => {
  it('answers a text endpoint with the declared text, as text/plain, with the declared status', async () => {
    const { app } = bareApp();
    let calls = 0;
    route(app, made, () => {
      calls += 1;
    });
    const response = await app.inject({ method: 'POST', url: '/t/made' });
    expect(response.statusCode).toBe(201);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.body).toBe('Made it');
    expect(calls).toBe(1);
  });

  it('answers an empty endpoint 204 with no body, its optional body left out or sent', async () => {
    const { app } = bareApp();
    const bodies: unknown[] = [];
    route(app, gone, (request) => {
      bodies.push(request.body?.currentPassword);
      return Promise.resolve();
    });
    const without = await app.inject({ method: 'DELETE', url: '/t/gone/7' });
    const withBody = await app.inject({ method: 'DELETE', url: '/t/gone/7', payload: { currentPassword: 'secret' } });
    for (const response of [without, withBody]) {
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
    }
    expect(bodies).toEqual([undefined, 'secret']);
    expect((await app.inject({ method: 'DELETE', url: '/t/gone/seven' })).statusCode).toBe(400);
  });

  it('answers a JSON endpoint with the declared status and the declared schema', async () => {
    const { app } = bareApp();
    const songIds: number[] = [];
    route(app, created, (request) => {
      songIds.push(request.body.songId);
      return { received: true as const };
    });
    const response = await app.inject({ method: 'POST', url: '/t/created', payload: { songId: 3 } });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ received: true });
    expect(songIds).toEqual([3]);
    const invalid = await app.inject({ method: 'POST', url: '/t/created', payload: { songId: 'three' } });
    expect(invalid.statusCode).toBe(400);
    expect(songIds).toEqual([3]);
  });

  it('leaves a binary answer to the handler, which writes it and returns the reply', async () => {
    const { app } = bareApp();
    route(app, bytes, (_request, reply) => reply.status(200).type('audio/wav').send(Buffer.from('RIFF')));
    const response = await app.inject({ method: 'GET', url: '/t/bytes' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('audio/wav');
    expect(response.rawPayload).toEqual(Buffer.from('RIFF'));
  });

  it('answers a JsonStream with the declared status, as the JSON its parts add up to', async () => {
    const { app } = bareApp();
    const [a, b, c] = [artist(1), artist(2, 3), artist(3)];
    route(app, artistList, () => JsonStream.array(chunksOf([a, b], [], [c])));
    route(app, songsData, () =>
      JsonStream.object<SongsDataResponse>({
        songs: JsonStream.array(chunksOf()),
        artists: JsonStream.array(chunksOf([c], [a])),
      }),
    );
    const list = await app.inject({ method: 'GET', url: '/t/artists' });
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(list.body).toBe(JSON.stringify([a, b, c]));
    const data = await app.inject({ method: 'GET', url: '/t/data' });
    expect(data.body).toBe(JSON.stringify({ songs: [], artists: [c, a] }));
  });

  it('lets the event loop run between two parts of a JsonStream', async () => {
    const { app } = bareApp();
    const ranBeforeNextPart: boolean[] = [];
    route(app, artistList, () =>
      JsonStream.array(async function* chunks() {
        for (let id = 1; id <= 3; id += 1) {
          let ran = false;
          setImmediate(() => {
            ran = true;
          });
          await Promise.resolve();
          // Big enough to be a part of its own (parts are glued up to 16 kB).
          yield [artist(id, 3000)];
          ranBeforeNextPart.push(ran);
        }
      }),
    );
    const response = await app.inject({ method: 'GET', url: '/t/artists' });
    expect(response.json<Artist[]>().map((one) => one.id)).toEqual([1, 2, 3]);
    expect(ranBeforeNextPart).toEqual([true, true, true]);
  });

  it('answers a failure before the first part of a JsonStream like any other error', async () => {
    const { app } = bareApp();
    route(app, artistList, () =>
      // eslint-disable-next-line require-yield -- fails before its first chunk, as a read of a database that is down
      JsonStream.array(async function* failing(): AsyncGenerator<Artist[]> {
        await Promise.resolve();
        throw new Error('database unavailable');
      }),
    );
    const response = await app.inject({ method: 'GET', url: '/t/artists' });
    expect(response.statusCode).toBe(500);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  });

  it('stops making the parts of a JsonStream when the client goes away, and goes on serving', async () => {
    const { app } = bareApp();
    const parts = { made: 0, stopped: false };
    route(app, artistList, () =>
      JsonStream.array(async function* endless() {
        try {
          for (;;) {
            parts.made += 1;
            await Promise.resolve();
            yield [artist(parts.made, 3000)];
          }
        } finally {
          parts.stopped = true;
        }
      }),
    );
    route(app, bytes, (_request, reply) => reply.status(200).type('text/plain').send('still here'));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const aborting = new AbortController();
    const response = await fetch(`${base}/t/artists`, { signal: aborting.signal });
    const reader = response.body?.getReader();
    expect((await reader?.read())?.done).toBe(false);
    aborting.abort();
    for (let waited = 0; !parts.stopped && waited < 5000; waited += 10) await sleep(10);
    expect(parts.stopped).toBe(true);
    const madeWhenStopped = parts.made;
    await sleep(50);
    expect(parts.made).toBe(madeWhenStopped);
    expect(await (await fetch(`${base}/t/bytes`)).text()).toBe('still here');
  });

  it('registers a contract declaration with its method, path, access, id and extras', async () => {
    const { app, routes } = bareApp();
    route(app, endpoints.auth.register, { config: { rateLimit: { max: 3, timeWindow: 1000 } } }, () => undefined);
    route(app, endpoints.auth.ping, () => undefined);
    await app.ready();
    const [register, ping] = routes;
    expect(register).toMatchObject({ method: 'POST', url: '/api/auth/register' });
    expect(register?.config).toEqual({
      rateLimit: { max: 3, timeWindow: 1000 },
      access: 'public',
      endpoint: 'auth.register',
    });
    expect(ping).toMatchObject({
      method: 'GET',
      url: '/api/auth/ping',
      config: { access: 'public', endpoint: 'auth.ping' },
    });
    const pong = await app.inject({ method: 'GET', url: '/api/auth/ping' });
    expect([pong.statusCode, pong.body]).toEqual([200, 'pong']);
  });

  it('gives OpenAPI the declaration’s id, feature, description and answers', () => {
    const schema = routeSchema(endpoints.songs.update);
    expect(schema).toMatchObject({
      tags: ['songs'],
      operationId: 'songs.update',
      description: endpoints.songs.update.description,
      consumes: ['multipart/form-data'],
      response: { 200: { description: 'Song updated successfully' } },
    });
    expect(routeSchema(made)).not.toHaveProperty('operationId');
    expect(routeSchema(gone)).not.toHaveProperty('response');
  });

  it('types each handler from its declaration', () => {
    expectTypeOf<HandlerResult<typeof endpoints.playlists.get>>().toEqualTypeOf<z.input<typeof Playlist>>();
    expectTypeOf<HandlerResult<typeof endpoints.likes.like>>().toEqualTypeOf<undefined>();
    expectTypeOf<StreamedResult<typeof endpoints.songs.data>>().toEqualTypeOf<
      JsonStream<z.input<typeof SongsDataResponse>>
    >();
    expectTypeOf<StreamedResult<typeof endpoints.likes.like>>().toBeNever();
    expectTypeOf(wrongHandlers).toBeFunction();
  });
});

/**
 * Never called: `tsc -p apps/server` checks that each of these handlers does not compile, so a response shape changed
 * in the contract breaks the server's typecheck.
 */
function wrongHandlers(app: App): void {
  // @ts-expect-error playlists.get answers a Playlist, not a string.
  route(app, endpoints.playlists.get, () => 'playlist');
  // @ts-expect-error a Playlist needs all its fields.
  route(app, endpoints.playlists.get, () => Promise.resolve({ id: 1, name: 'Mix' }));
  // @ts-expect-error a text answer is the declaration's own: its handler returns nothing.
  route(app, endpoints.auth.ping, () => 'pong');
  // @ts-expect-error an empty answer has no body to return.
  route(app, endpoints.likes.like, () => ({ liked: true }));
  // @ts-expect-error songs.list answers songs: a stream of artists does not add up to that.
  route(app, endpoints.songs.list, () => JsonStream.array(chunksOf([artist(1)])));
  // @ts-expect-error a text answer is the declaration's own: it is not streamed either.
  route(app, endpoints.auth.ping, () => JsonStream.array(chunksOf(['pong'])));
  route(app, endpoints.likes.unlike, (request) => {
    // @ts-expect-error likes.unlike's path parameter is `id`.
    expect(request.params.songId).toBeDefined();
  });
}
