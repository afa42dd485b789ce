import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client.js';
import { activateDownloads, readDownloadedSongs } from '../../lib/downloaded-songs.js';
import { cachedAudioSize, offlineAudioCache } from '../../lib/offline-audio.js';
import { installFakeCaches } from '../../test/fake-caches.js';
import { errorResponse, makeSong } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { downloadSong, removeDownload } from './download-song.js';

/** The signed-in user, whose cache the downloads go to. */
const USER = 7;
const CACHE = offlineAudioCache(USER);
const song = makeSong(5, { name: 'Night Ferry', link: '/media/audio/abc.wav', imgLink: '/media/images/c.jpg' });

describe('downloads (no service worker: the page stores the audio itself)', () => {
  let caches: ReturnType<typeof installFakeCaches>;
  beforeEach(() => {
    caches = installFakeCaches();
    localStorage.clear();
    activateDownloads(USER);
  });

  it('fetches the download endpoint into Cache Storage under the song URL, with its cover, and lists the song', async () => {
    const api = mockApi({
      'downloads.song': () => new Response(new Uint8Array(1234), { headers: { 'Content-Type': 'audio/wav' } }),
      'media.image': () => new Response(new Uint8Array(10), { headers: { 'Content-Type': 'image/jpeg' } }),
    });
    await expect(downloadSong(song)).resolves.toBe(1234);
    expect(api.calls()).toEqual(['GET /api/songs/5/download', 'GET /media/images/c.jpg?w=64']);
    expect(caches.urls(CACHE)).toEqual([
      'http://localhost/media/audio/abc.wav',
      'http://localhost/media/images/c.jpg?w=64',
    ]);
    expect(await cachedAudioSize(song.link, USER)).toBe(1234);
    expect(readDownloadedSongs().map((entry) => entry.id)).toEqual([5]);
  });

  it('removal by id deletes the stored audio and cover too', async () => {
    mockApi({
      'downloads.song': () => new Response(new Uint8Array(10)),
      'media.image': () => new Response(new Uint8Array(1)),
    });
    await downloadSong(song);
    await removeDownload(song);
    expect(caches.urls(CACHE)).toEqual([]);
    expect(readDownloadedSongs()).toEqual([]);
    expect(await cachedAudioSize(song.link, USER)).toBeNull();
  });

  it('a free account gets the server refusal and nothing is stored', async () => {
    mockApi({ 'downloads.song': () => errorResponse(403, 'forbidden', 'Downloads are a Premium feature.') });
    const error: unknown = await downloadSong(song).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403 });
    expect(caches.urls(CACHE)).toEqual([]);
    expect(readDownloadedSongs()).toEqual([]);
  });

  it('keeps the audio in the downloading user’s own cache: another user on this browser has none of it', async () => {
    mockApi({
      'downloads.song': () => new Response(new Uint8Array(10)),
      'media.image': () => new Response(new Uint8Array(1)),
    });
    await downloadSong(song);
    expect(CACHE).toBe('tonearm-audio-u7');
    activateDownloads(8);
    expect(readDownloadedSongs()).toEqual([]);
    expect(await cachedAudioSize(song.link, 8)).toBeNull();
    expect(caches.urls(offlineAudioCache(8))).toEqual([]);
    activateDownloads(USER);
    expect(readDownloadedSongs().map((entry) => entry.id)).toEqual([5]);
    expect(await cachedAudioSize(song.link, USER)).toBe(10);
  });

  it('refuses to download with nobody signed in', async () => {
    const api = mockApi({});
    localStorage.clear();
    await expect(downloadSong(song)).rejects.toThrow('Log in to download songs');
    expect(api.calls()).toEqual([]);
  });
});
