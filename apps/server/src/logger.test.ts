import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loggedUrl, loggerOptions } from './logger.js';

describe('the request log', () => {
  it('keeps no Subsonic credentials from the URL, and every other URL as it came', () => {
    expect(loggedUrl('/rest/ping.view?u=alice&p=enc%3A6162&v=1.16.1&c=app&f=json')).toBe(
      '/rest/ping.view?u=alice&p=%5Bredacted%5D&v=1.16.1&c=app&f=json',
    );
    expect(loggedUrl('/rest/stream?id=3&u=alice&t=abc&s=xyz')).toBe(
      '/rest/stream?id=3&u=alice&t=%5Bredacted%5D&s=%5Bredacted%5D',
    );
    expect(loggedUrl('/rest/ping?apiKey=secret&apiKey=again')).toBe('/rest/ping?apiKey=%5Bredacted%5D');
    expect(loggedUrl('/rest/ping')).toBe('/rest/ping');
    expect(loggedUrl('/api/search?q=p&s=1')).toBe('/api/search?q=p&s=1');
  });

  it('is written through it by a real Fastify logger', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const options = loggerOptions({ logLevel: 'info' });
    const app = Fastify({ logger: { ...(options as object), stream } });
    app.get('/rest/ping', () => ({ ok: true }));
    await app.inject({ url: '/rest/ping?u=alice&p=hunter2-app-password&apiKey=k3y' });
    await app.close();
    const logged = lines.join('');
    expect(logged).toContain('"url":"/rest/ping?u=alice&p=%5Bredacted%5D&apiKey=%5Bredacted%5D"');
    expect(logged).not.toContain('hunter2');
    expect(logged).not.toContain('k3y');
  });
});
