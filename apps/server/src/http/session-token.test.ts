import cookie from '@fastify/cookie';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE, sessionTokenOf } from './session.js';

/** The media handler reads the session cookie itself; it must read it exactly as @fastify/cookie does. */
describe('sessionTokenOf', () => {
  const app = Fastify();
  beforeAll(async () => {
    await app.register(cookie);
    app.get('/', (request) => ({ token: request.cookies[SESSION_COOKIE] ?? null }));
    await app.ready();
  });
  afterAll(() => app.close());

  it.each([
    undefined,
    '',
    `${SESSION_COOKIE}=abc`,
    `theme=dark; ${SESSION_COOKIE}=abc; lang=en`,
    `theme=dark;${SESSION_COOKIE}=abc`,
    `  ${SESSION_COOKIE} =  abc\t; x=1`,
    `${SESSION_COOKIE}=first; ${SESSION_COOKIE}=second`,
    `${SESSION_COOKIE}=a%62c`,
    `${SESSION_COOKIE}=%zz`,
    `${SESSION_COOKIE}=`,
    `x${SESSION_COOKIE}=abc`,
    `${SESSION_COOKIE}x=abc`,
    `novalue; ${SESSION_COOKIE}=abc`,
    `${SESSION_COOKIE}="quoted"`,
    `${SESSION_COOKIE}=a=b`,
  ])('reads %j as @fastify/cookie does', async (header) => {
    const response = await app.inject({ url: '/', headers: header === undefined ? {} : { cookie: header } });
    const { token } = response.json<{ token: string | null }>();
    expect(sessionTokenOf(header) ?? null).toBe(token);
  });
});
