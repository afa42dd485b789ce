import { Album, AlbumPage, Artist, Song } from '@tonearm/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDialect } from '../../test/dialects.js';
import { makeUser, type TestUser } from '../../test/factories.js';
import { artistCount, songCount, testBlobStore } from '../../test/stored.js';
import { DEMO_ALBUMS, DEMO_ARTISTS, DEMO_SONGS } from './demo-catalogue.js';
import { prepareCatalogueStorage } from '../startup.js';
import type { LocalBlobStore } from '../storage/local-blob-store.js';

const silent = { info: () => undefined, warn: () => undefined };

describeEachDialect('demo catalogue on first start (%s)', (t) => {
  let store: LocalBlobStore;
  const prepare = (demo: boolean) =>
    prepareCatalogueStorage({ db: t.db, dialect: t.dialect, store, demo, log: silent, catalogue: t.catalogue });

  beforeAll(() => {
    store = testBlobStore(t.dataDir);
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
      listener = await makeUser(t);
    });

    it('seeds the generated artists and songs through the upload pipeline', async () => {
      expect(await artistCount(t.db)).toBe(DEMO_ARTISTS.length);
      expect(await songCount(t.db)).toBe(DEMO_SONGS.length);
      const artists = await t.as(listener).json('/artists', z.array(Artist));
      expect(artists.map((a) => a.name).sort()).toEqual(DEMO_ARTISTS.map((a) => a.name).sort());
      expect(artists.every((a) => a.image !== null && a.songs.length > 0)).toBe(true);
    });

    it('gives every song playable audio, a cover and a duration read from the file', async () => {
      const songs = await t.as(listener).json('/api/songs', z.array(Song));
      expect(songs.map((s) => s.name).sort()).toEqual(DEMO_SONGS.map((s) => s.name).sort());
      for (const song of songs) {
        expect(song.durationMs).toBeGreaterThan(20_000);
        const audio = await t.as(listener).get(song.link, { headers: { range: 'bytes=0-11' } });
        expect(audio.statusCode).toBe(206);
        expect(audio.rawPayload.subarray(0, 4).toString('latin1')).toBe('RIFF');
        expect((await t.as(null).get(song.imgLink)).statusCode).toBe(200);
      }
    });

    it('is made of albums: each with its artist, year, cover and tracks in order, newest on the home shelf', async () => {
      const recent = await t.as(listener).json('/api/albums?sort=recent', AlbumPage);
      expect(recent.items.map((album) => album.name).sort()).toEqual(DEMO_ALBUMS.map((album) => album.name).sort());
      expect(recent.items.every((album) => !album.placeholder && album.imgLink !== '')).toBe(true);
      for (const spec of DEMO_ALBUMS) {
        const summary = recent.items.find((album) => album.name === spec.name);
        expect(summary).toMatchObject({ artistName: spec.artistName, year: spec.year });
        const album = await t.as(listener).json(`/api/albums/${summary?.id ?? 0}`, Album);
        const tracks = DEMO_SONGS.filter((song) => song.album === spec.name);
        expect(album.songs.map((song) => [song.name, song.trackNumber, song.year])).toEqual(
          tracks.map((song) => [song.name, song.track, spec.year]),
        );
        expect((await t.as(null).get(album.imgLink)).statusCode).toBe(200);
      }
      // No song is left on a placeholder album.
      expect(await t.db.selectFrom('albums').select('id').where('is_placeholder', '=', 1).execute()).toEqual([]);
    });

    it('is not seeded again on the next start, even after the songs were deleted', async () => {
      await t.db.deleteFrom('songs').execute();
      await prepare(true);
      expect(await songCount(t.db)).toBe(0);
    });
  });
});
