import { endpoint, endpoints, type Playlist } from '@tonearm/contract';
import Fastify, { type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { App } from './app-types.js';
import { route, routeSchema, type HandlerResult } from './endpoint-route.js';

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
  route(app, endpoints.likes.unlike, (request) => {
    // @ts-expect-error likes.unlike's path parameter is `id`.
    expect(request.params.songId).toBeDefined();
  });
}
