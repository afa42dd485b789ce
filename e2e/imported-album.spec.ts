import { mkdir } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import {
  AUDIO_FORMATS,
  encodeAudio,
  encodePicture,
  extensionOf,
  requireFfmpeg,
  type AudioFormat,
} from '../apps/server/test/audio-formats.js';
import { MIME_BY_CODEC } from '../apps/web/src/lib/stream-link.js';
import { postgresMissing, type E2eDatabase } from './support/large-library.js';
import { apiSession, logIn, newAccount, registerAccount } from './support/pages/accounts.js';
import { setGapless } from './support/pages/audio-probe.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';

/**
 * SQLite only: what this walk adds to the import's own tests (import-formats.test.ts and import.test.ts run on both
 * dialects) is the browser playing each format, which no database changes; large-library.spec.ts is the PostgreSQL
 * server's end-to-end walk.
 */
const DATABASES: readonly E2eDatabase[] = ['sqlite'];
const ALBUM = 'Seven Formats';
const SECONDS = 3;

/**
 * Issue 12: an album of the seven formats, each file tagged with its track number, written in an order unlike the
 * tracks' (file names sort 7 … 1) and imported with `npm run import`'s code before the server starts.
 */
async function writeAlbum(folder: string): Promise<void> {
  requireFfmpeg();
  const album = `${folder}/${ALBUM}`;
  await mkdir(album);
  await encodePicture(`${folder}/cover-art.png`, 64, 'teal');
  for (const [index, format] of AUDIO_FORMATS.entries()) {
    const name = `${String(7 - index)} - ${format}.${extensionOf(format)}`;
    await encodeAudio(`${album}/${name}`, format, {
      frequency: 330 + 40 * index,
      seconds: SECONDS,
      picture: `${folder}/cover-art.png`,
      tags: {
        title: titleOf(format),
        artist: 'Format Band',
        album: ALBUM,
        albumArtist: 'Format Band',
        track: String(index + 1),
        date: '2020',
        genre: 'Indie Rock',
      },
    });
  }
}

function titleOf(format: AudioFormat): string {
  return `${format.toUpperCase()} track`;
}

interface AlbumSong {
  name: string;
  link: string;
  audioFormat: string | null;
}

/** Every <audio> element's progress, as the page plays: a capturing listener sees the media events of both decks. */
async function recordProgress(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: Record<string, number> = {};
    const order: string[] = [];
    Object.assign(window, { e2eProgress: { seen, order } });
    document.addEventListener(
      'timeupdate',
      (event) => {
        const audio = event.target as HTMLAudioElement;
        const src = audio.currentSrc;
        if (audio.paused || audio.currentTime < 0.3) return;
        if (!(src in seen)) order.push(src);
        seen[src] = Math.max(seen[src] ?? 0, audio.currentTime);
      },
      true,
    );
  });
}

function progress(page: Page): Promise<{ seen: Record<string, number>; order: string[] }> {
  return page.evaluate(
    () => (window as unknown as { e2eProgress: { seen: Record<string, number>; order: string[] } }).e2eProgress,
  );
}

for (const database of DATABASES) {
  test.describe(`an imported album (${database})`, () => {
    test.beforeAll(() => {
      const missing = database === 'postgres' ? postgresMissing() : null;
      if (missing !== null) throw new Error(missing);
    });
    const server = useTonearmServer({ demo: false, library: { songs: 0, database, imported: writeAlbum } });

    test('plays in track order, every format: directly when Chromium can, else transcoded', async ({ page }) => {
      test.setTimeout(90_000);
      const listener = newAccount('formats');
      await registerAccount(server.baseURL, listener);
      const api = await apiSession(server.baseURL, listener);
      const albums = (await (await api.get(`/api/albums?q=${encodeURIComponent(ALBUM)}`)).json()) as {
        items: { id: number }[];
      };
      const albumId = albums.items[0]?.id;
      expect(albumId).toBeDefined();
      const album = (await (await api.get(`/api/albums/${albumId}`)).json()) as { songs: AlbumSong[]; year: number };
      expect(album.year).toBe(2020);
      expect(album.songs.map((song) => song.name)).toEqual(AUDIO_FORMATS.map(titleOf));
      await api.dispose();

      // The two-element player's choice between the file and a transcode is what this checks; the gapless path
      // (on by default) streams every format through one conversion, and e2e/gapless.spec.ts measures it per format.
      await setGapless(page, false);
      await logIn(page, listener);
      await page.goto(`/dashboard/album?id=${albumId}`);
      await expect(page.getByRole('heading', { level: 1, name: ALBUM })).toBeVisible();
      // Which of the stored codecs this Chromium plays as they are.
      const playable = await page.evaluate(
        ({ songs, types }) => {
          const probe = document.createElement('audio');
          return songs.map((song) => probe.canPlayType(types[song.audioFormat ?? ''] ?? '') !== '');
        },
        { songs: album.songs, types: MIME_BY_CODEC },
      );

      await recordProgress(page);
      await page.getByRole('button', { name: 'Play album', exact: true }).click();
      const originalOf = (src: string) => new URL(src).pathname;
      await expect
        .poll(
          async () => {
            const { seen } = await progress(page);
            return album.songs.filter((song) =>
              Object.entries(seen).some(([src, time]) => originalOf(src) === song.link && time > 1),
            ).length;
          },
          { timeout: 60_000, intervals: [250] },
        )
        .toBe(album.songs.length);

      const { order } = await progress(page);
      expect(order.map((src) => album.songs.findIndex((song) => song.link === originalOf(src)))).toEqual(
        album.songs.map((_, index) => index),
      );
      for (const [index, song] of album.songs.entries()) {
        const src = order[index] ?? '';
        const transcoded = src.includes('?format=');
        expect(transcoded, `${song.name} (${song.audioFormat ?? '?'}) transcoded`).toBe(!playable[index]);
      }
    });
  });
}
