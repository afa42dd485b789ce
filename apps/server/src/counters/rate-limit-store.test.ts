import rateLimit from '@fastify/rate-limit';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { MemoryCounterStore } from './counter-store.js';
import { rateLimitStoreOver } from './rate-limit-store.js';

/** An app whose limits count in `counters`: two routes limited on their own, two sharing one group limit. */
async function limitedApp(counters: MemoryCounterStore) {
  const app = Fastify();
  await app.register(rateLimit, { global: false, store: rateLimitStoreOver(counters) });
  const limit = { rateLimit: { max: 2, timeWindow: 60_000 } };
  app.get('/a', { config: limit }, () => 'a');
  app.get('/b', { config: limit }, () => 'b');
  const shared = app.rateLimit({ max: 3, timeWindow: 60_000, groupId: 'uploads' });
  app.post('/c', { preHandler: shared }, () => 'c');
  app.post('/d', { preHandler: shared }, () => 'd');
  await app.ready();
  return app;
}

describe('the rate-limit store over counters', () => {
  it('counts each route on its own, and a shared limit across its routes, in one store for every app', async () => {
    const counters = new MemoryCounterStore();
    // Two apps on one store: two instances on one database.
    const apps = [await limitedApp(counters), await limitedApp(counters)];
    const status = async (i: number, method: 'GET' | 'POST', url: string) =>
      (await apps[i % 2]?.inject({ method, url }))?.statusCode;

    expect([await status(0, 'GET', '/a'), await status(1, 'GET', '/a'), await status(0, 'GET', '/a')]).toEqual([
      200, 200, 429,
    ]);
    expect(await status(1, 'GET', '/b')).toBe(200);
    const shared = [];
    for (let i = 0; i < 4; i += 1) shared.push(await status(i, 'POST', i % 2 === 0 ? '/c' : '/d'));
    expect(shared).toEqual([200, 200, 200, 429]);
    expect((await counters.read('route:GET/a:127.0.0.1')).count).toBe(3);
    expect((await counters.read('route:group:uploads:127.0.0.1')).count).toBe(4);
    await Promise.all(apps.map((app) => app.close()));
  });
});
