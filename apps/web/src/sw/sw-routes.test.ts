import { describe, expect, it } from 'vitest';
import { OFFLINE_SHELL_META } from '../lib/offline-start.js';
import { installFakeCaches } from '../test/fake-caches.js';
import {
  markShellOffline,
  downloadKeyOf,
  readSignedInUser,
  routeFor,
  shellCacheName,
  shellPathsOf,
  SW_STATE_CACHE,
  uniqueEntries,
  writeSignedInUser,
} from './sw-routes.js';

const origin = 'https://music.example.org';
const shell = new Set(['/index.html', '/assets/index-abc.js', '/welcome-chime.wav']);
const get = (path: string, mode = 'no-cors') => ({ method: 'GET', mode, url: `${origin}${path}` });

describe('service worker routes', () => {
  it('answers pages network-first, shell files from the cache, media from downloads', () => {
    expect(routeFor(get('/dashboard/downloaded', 'navigate'), origin, shell)).toBe('navigation');
    expect(routeFor(get('/assets/index-abc.js'), origin, shell)).toBe('shell-asset');
    expect(routeFor(get('/welcome-chime.wav'), origin, shell)).toBe('shell-asset');
    expect(routeFor(get('/media/audio/abc.wav'), origin, shell)).toBe('download');
    expect(routeFor(get('/media/images/abc.jpg?w=64'), origin, shell)).toBe('download');
  });

  it('never touches API JSON, server pages, writes, unknown files or other origins', () => {
    expect(routeFor(get('/api/songs'), origin, shell)).toBe('pass');
    expect(routeFor(get('/api/auth/me', 'cors'), origin, shell)).toBe('pass');
    expect(routeFor(get('/api/docs', 'navigate'), origin, shell)).toBe('pass');
    expect(routeFor(get('/artists'), origin, shell)).toBe('pass');
    expect(routeFor({ ...get('/media/audio/abc.wav'), method: 'HEAD' }, origin, shell)).toBe('pass');
    expect(routeFor({ ...get('/api/plays'), method: 'POST' }, origin, shell)).toBe('pass');
    expect(routeFor(get('/assets/old-build.js'), origin, shell)).toBe('pass');
    expect(routeFor({ method: 'GET', mode: 'navigate', url: 'https://elsewhere.test/' }, origin, shell)).toBe('pass');
  });

  it('names the shell cache after the build, resolves paths against the scope and drops duplicates', () => {
    const script = { url: 'assets/index-abc.js', revision: null };
    const entries = [{ url: 'index.html', revision: 'a' }, script];
    expect(shellCacheName(entries)).toBe(shellCacheName([...entries]));
    expect(shellCacheName(entries)).not.toBe(shellCacheName([{ url: 'index.html', revision: 'b' }, script]));
    expect([...shellPathsOf(entries, `${origin}/`)]).toEqual(['/index.html', '/assets/index-abc.js']);
    expect(uniqueEntries([...entries, { url: '/index.html', revision: 'a' }], `${origin}/`)).toHaveLength(2);
  });
});

describe('the shell answered offline', () => {
  it('carries a mark in its head, whatever attributes the head has', () => {
    const mark = `<meta name="${OFFLINE_SHELL_META}" content="1">`;
    expect(markShellOffline('<!doctype html><html><head><title>T</title></head><body></body></html>')).toBe(
      `<!doctype html><html><head>${mark}<title>T</title></head><body></body></html>`,
    );
    expect(markShellOffline('<html><HEAD lang="en"><title>T</title></HEAD></html>')).toBe(
      `<html><HEAD lang="en">${mark}<title>T</title></HEAD></html>`,
    );
    expect(markShellOffline('<html><header></header></html>')).toBe('<html><header></header></html>');
  });
});

describe('the download that answers a request', () => {
  it('is the original for a converted stream of a downloaded song, the exact URL otherwise', () => {
    const key = (path: string) => downloadKeyOf(new URL(`${origin}${path}`));
    expect(key('/media/audio/a.flac?format=opus&bitrate=128')).toBe('/media/audio/a.flac');
    expect(key('/media/audio/a.flac?format=mp3')).toBe('/media/audio/a.flac');
    expect(key('/media/audio/a.flac')).toBe('/media/audio/a.flac');
    expect(key('/media/audio/a.flac?format=opus&other=1')).toBe('/media/audio/a.flac?format=opus&other=1');
    expect(key('/media/images/a.webp?w=64')).toBe('/media/images/a.webp?w=64');
  });
});

describe('the signed-in user the worker remembers', () => {
  it('is null until told, then what it was last told, across reads (a restarted worker)', async () => {
    installFakeCaches();
    expect(await readSignedInUser()).toBeNull();
    await writeSignedInUser(7);
    expect(await readSignedInUser()).toBe(7);
    await writeSignedInUser(null);
    expect(await readSignedInUser()).toBeNull();
  });

  it('reads a damaged entry as nobody', async () => {
    installFakeCaches();
    const cache = await caches.open(SW_STATE_CACHE);
    await cache.put('/__tonearm/signed-in-user', new Response('{"userId":"7"}'));
    expect(await readSignedInUser()).toBeNull();
    await cache.put('/__tonearm/signed-in-user', new Response('not json'));
    expect(await readSignedInUser()).toBeNull();
  });
});
