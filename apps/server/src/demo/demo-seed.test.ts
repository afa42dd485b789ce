import path from 'node:path';
import { Artist, Song } from '@tonearm/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { asUser, createTestApp, testDatabases, type TestApp, type TestUser } from '../../test/harness.js';
import { DEMO_ARTISTS, DEMO_SONGS } from './demo-catalogue.js';
import { prepareCatalogueStorage } from '../startup.js';
import { LocalBlobStore } from '../storage/local-blob-store.js';
import { artistCount, songCount } from '../modules/songs/catalogue.fixtures.js';

const silent = { info: () => undefined, warn: () => undefined };

describe.each(testDatabases())('demo catalogue on first start (%s)', (dialect) => {
  let t: TestApp;
  let store: LocalBlobStore;
  const prepare = (demo: boolean) =>
    prepareCatalogueStorage({ db: t.db, dialect: t.dialect, store, demo, log: silent });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    store = new LocalBlobStore(path.join(t.dataDir, 'blobs'));
  });

  afterAll(async () => {
    await t.close();
  });

  it('does nothing with DEMO=0', async () => {
    await prepare(false);
    expect(await songCount(t.db)).toBe(0);
    expect(await artistCount(t.db)).toBe(0);
  });

  describe('with DEMO on', () => {
    let listener: TestUser;

    beforeAll(async () => {
      await prepare(true);
      listener = await asUser(t);
    });

    it('seeds the generated artists and songs through the upload pipeline', async () => {
      expect(await artistCount(t.db)).toBe(DEMO_ARTISTS.length);
      expect(await songCount(t.db)).toBe(DEMO_SONGS.length);
      const artists = z
        .array(Artist)
        .parse((await t.app.inject({ method: 'GET', url: '/artists', headers: listener.headers })).json());
      expect(artists.map((a) => a.name).sort()).toEqual(DEMO_ARTISTS.map((a) => a.name).sort());
      expect(artists.every((a) => a.image !== null && a.songs.length > 0)).toBe(true);
    });

    it('gives every song playable audio, a cover and a duration read from the file', async () => {
      const songs = z
        .array(Song)
        .parse((await t.app.inject({ method: 'GET', url: '/api/songs', headers: listener.headers })).json());
      expect(songs.map((s) => s.name).sort()).toEqual(DEMO_SONGS.map((s) => s.name).sort());
      for (const song of songs) {
        expect(song.durationMs).toBeGreaterThan(20_000);
        const audio = await t.app.inject({
          method: 'GET',
          url: song.link,
          headers: { ...listener.headers, range: 'bytes=0-11' },
        });
        expect(audio.statusCode).toBe(206);
        expect(audio.rawPayload.subarray(0, 4).toString('latin1')).toBe('RIFF');
        expect((await t.app.inject({ method: 'GET', url: song.imgLink })).statusCode).toBe(200);
      }
    });

    it('is not seeded again on the next start, even after the songs were deleted', async () => {
      await t.db.deleteFrom('songs').execute();
      await prepare(true);
      expect(await songCount(t.db)).toBe(0);
    });
  });
});
