import Fastify, { type FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { helmetOptions, registerSecurity, securityHeaders } from './security.js';

/** The headers a response of `app` carries besides the ones any answer has. */
async function headersOf(app: FastifyInstance): Promise<Record<string, unknown>> {
  app.get('/', () => ({ ok: true }));
  const response = await app.inject({ url: '/' });
  await app.close();
  const {
    'content-type': _type,
    'content-length': _length,
    date: _date,
    connection: _connection,
    ...rest
  } = response.headers;
  return rest;
}

/**
 * The app (and the lean media handler) send securityHeaders() as a fixed list; it must be exactly what helmet itself
 * writes from the app's options, header for header.
 */
describe('securityHeaders', () => {
  it.each([
    ['plain http', {}],
    ['https (HSTS, upgrade-insecure-requests)', { PUBLIC_URL: 'https://music.example.org' }],
  ])('equals what helmet writes from the same options (%s)', async (_name, env) => {
    const config = loadConfig({ NODE_ENV: 'test', ...env });
    const byHelmet = Fastify();
    const middleware = helmet(helmetOptions(config));
    byHelmet.addHook('onRequest', (request, reply, done) => {
      middleware(request.raw, reply.raw, () => done());
    });
    const expected = await headersOf(byHelmet);

    const app = Fastify();
    registerSecurity(app.withTypeProvider<ZodTypeProvider>(), config);
    expect(await headersOf(app)).toEqual(expected);
    expect(securityHeaders(config)).toEqual(expected);
    expect('strict-transport-security' in expected).toBe('PUBLIC_URL' in env);
  });
});
