import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loggedUrl, loggerOptions, logFormatOf } from './logger.js';

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

  it.each(['json', 'pretty'] as const)('is written through it by a real Fastify logger, as %s', async (format) => {
    const logged = await logOneRequest(format, '/rest/ping?u=alice&p=hunter2-app-password&apiKey=k3y');
    expect(logged).toContain('/rest/ping?u=alice&p=%5Bredacted%5D&apiKey=%5Bredacted%5D');
    expect(logged).not.toContain('hunter2');
    expect(logged).not.toContain('k3y');
    // JSON: one object per line; pretty: no JSON line at all, the level and message as words.
    if (format === 'json') {
      const lines = logged.split('\n').filter(Boolean);
      expect(lines.map((line) => JSON.parse(line) as object)).toContainEqual(
        expect.objectContaining({ msg: 'incoming request' }),
      );
    } else {
      expect(logged).toMatch(/INFO.*incoming request/);
      expect(logged.split('\n').some((line) => line.startsWith('{'))).toBe(false);
    }
  });
});

describe('the log format', () => {
  it('is pretty at a terminal and JSON lines otherwise, unless LOG_FORMAT says which', () => {
    expect(logFormatOf({ logFormat: null }, true)).toBe('pretty');
    expect(logFormatOf({ logFormat: null }, false)).toBe('json');
    expect(logFormatOf({ logFormat: 'json' }, true)).toBe('json');
    expect(logFormatOf({ logFormat: 'pretty' }, false)).toBe('pretty');
  });

  it('follows whether stdout is a terminal when LOG_FORMAT is unset', async () => {
    const atTerminal = await logOneRequest(null, '/api/ping', true);
    const piped = await logOneRequest(null, '/api/ping', false);
    expect(atTerminal).toMatch(/INFO.*request completed/);
    expect(() => {
      JSON.parse(atTerminal.split('\n')[0] ?? '');
    }).toThrow();
    expect(JSON.parse(piped.split('\n')[0] ?? '')).toMatchObject({ level: 30, msg: 'incoming request' });
  });
});

/** What a Fastify app with loggerOptions writes for one request to `url`. */
async function logOneRequest(format: 'json' | 'pretty' | null, url: string, isTTY = false): Promise<string> {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const app = Fastify({ logger: loggerOptions({ logLevel: 'info', logFormat: format }, { destination, isTTY }) });
  app.get(url.split('?')[0] ?? url, () => ({ ok: true }));
  await app.inject({ url });
  await app.close();
  return chunks.join('');
}
