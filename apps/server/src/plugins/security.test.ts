import Fastify from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { registerSecurity, securityHeaders } from './security.js';

/** The lean media handler sends securityHeaders() itself; they must be exactly what helmet sends everywhere else. */
describe('securityHeaders', () => {
  it.each([
    ['plain http', {}],
    ['https (HSTS, upgrade-insecure-requests)', { PUBLIC_URL: 'https://music.example.org' }],
  ])('equals the headers helmet adds to Fastify responses (%s)', async (_name, env) => {
    const config = loadConfig({ NODE_ENV: 'test', ...env });
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    await registerSecurity(app, config);
    app.get('/', () => ({ ok: true }));
    const response = await app.inject({ url: '/' });
    await app.close();

    const expected = securityHeaders(config);
    const fromHelmet = Object.fromEntries(Object.keys(expected).map((name) => [name, response.headers[name]]));
    expect(fromHelmet).toEqual(expected);
    const unlisted = Object.keys(response.headers).filter(
      (name) => !(name in expected) && !['content-type', 'content-length', 'date', 'connection'].includes(name),
    );
    expect(unlisted).toEqual([]);
    expect('strict-transport-security' in expected).toBe('PUBLIC_URL' in env);
  });
});
