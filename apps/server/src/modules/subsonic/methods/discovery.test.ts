import type { AddressInfo } from 'node:net';
import { SubsonicAPI } from 'subsonic-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDialect } from '../../../../test/dialects.js';
import { insertSongs, makeUser, type TestSong, type TestUser } from '../../../../test/factories.js';
import { hideSongs, insertListens } from '../../../../test/listening.js';
import { apiKeyOf, Child, subsonicApi, type SubsonicApi } from '../../../../test/subsonic.js';
import { subsonicFetch } from '../../../../test/subsonic-answers.js';

const Songs = z.object({ song: z.array(Child).optional() });
const Similar = z.strictObject({ similarSongs: Songs });
const Similar2 = z.strictObject({ similarSongs2: Songs });
const Top = z.strictObject({ topSongs: Songs });

/**
 * Issue 28's radio for Subsonic apps: getSimilarSongs(2) from a song, an album or an artist (the seed left out), and
 * getTopSongs by the server's listens; raw requests (JSON and XML) and the npm `subsonic-api` client.
 */
describeEachDialect('Subsonic similar and top songs (%s)', { env: { SCAN_WATCH: '0' } }, (t) => {
  let listener: TestUser;
  let api: SubsonicApi;
  let client: SubsonicAPI;
  let band: TestSong[];
  let others: TestSong[];
  let artistId: number;
  /** Songs of an artist in a library only its members see (none of them is a member). */
  let secret: TestSong[];
  let secretArtistId: number;
  const ids = (answer: { song?: { id: string }[] | undefined }) => (answer.song ?? []).map((song) => song.id);
  const artistOf = async (songId: number) =>
    (await t.db.selectFrom('songs').select('artist_id').where('id', '=', songId).executeTakeFirstOrThrow()).artist_id;

  beforeAll(async () => {
    listener = await makeUser(t);
    api = subsonicApi(t, { apiKey: await apiKeyOf(t, listener) });
    band = await insertSongs(t, 6, 'Radio Waves');
    others = await insertSongs(t, 4, 'Quiet Other');
    await t.db
      .updateTable('songs')
      .set({ genre: 'Jazz' })
      .where(
        'id',
        'in',
        others.map((song) => song.id),
      )
      .execute();
    artistId = (await artistOf(band[0]?.id ?? 0)) ?? 0;
    secret = await insertSongs(t, 3, 'Secret Band');
    secretArtistId = (await artistOf(secret[0]?.id ?? 0)) ?? 0;
    await hideSongs(
      t,
      secret.map((song) => song.id),
      () => t.composition.services.libraryAccess.changed(),
    );
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    client = new SubsonicAPI({ url: base, auth: { apiKey: await apiKeyOf(t, listener) }, fetch: subsonicFetch() });
  });

  describe('getSimilarSongs and getSimilarSongs2', () => {
    it("answers a song's radio without the song itself, at most `count`, songs the caller sees", async () => {
      const seed = String(band[0]?.id);
      const { similarSongs } = await api.shape('getSimilarSongs', { id: seed, count: 4 }, Similar);
      const found = ids(similarSongs);
      expect(found.length).toBeGreaterThan(0);
      expect(found.length).toBeLessThanOrEqual(4);
      expect(found).not.toContain(seed);
      expect(new Set(found).size).toBe(found.length);
      // With no audio analysed here, the tags lead: the seed's artist and genre before the jazz.
      expect(found[0]).toMatch(new RegExp(`^(${band.map((song) => song.id).join('|')})$`));
    });

    it("answers an artist's radio without the artist's own songs (getSimilarSongs2, also through the npm client)", async () => {
      const own = new Set(band.map((song) => String(song.id)));
      const { similarSongs2 } = await api.shape('getSimilarSongs2', { id: `ar-${artistId}`, count: 10 }, Similar2);
      expect(ids(similarSongs2).some((id) => own.has(id))).toBe(false);
      const answer = await client.getSimilarSongs2({ id: `ar-${artistId}`, count: 10 });
      expect((answer.similarSongs2.song ?? []).map((song) => song.id)).toEqual(ids(similarSongs2));
    });

    it('answers 70 for an id that names nothing, 10 without one, and nothing for count=0', async () => {
      await api.error('getSimilarSongs', { id: '999999' }, 70);
      await api.error('getSimilarSongs2', { id: 'ar-999999' }, 70);
      await api.error('getSimilarSongs', {}, 10);
      const { similarSongs } = await api.shape('getSimilarSongs', { id: String(band[1]?.id), count: 0 }, Similar);
      expect(ids(similarSongs)).toEqual([]);
    });
  });

  describe('getTopSongs', () => {
    it("lists an artist's songs by the server's listens, then plays, any case of the name", async () => {
      const [first, second, third] = band;
      if (!first || !second || !third) throw new Error('no songs');
      const other = await makeUser(t);
      const at = (minute: number) => `2026-11-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
      await insertListens(t, [
        { userId: listener.id, songId: third.id, playedAt: at(1), listenedMs: 90_000 },
        { userId: other.id, songId: third.id, playedAt: at(2), listenedMs: 90_000 },
        { userId: listener.id, songId: second.id, playedAt: at(3), listenedMs: 90_000 },
      ]);
      const { topSongs } = await api.shape('getTopSongs', { artist: 'radio waves', count: 2 }, Top);
      expect(ids(topSongs)).toEqual([String(third.id), String(second.id)]);
      const answer = await client.getTopSongs({ artist: 'Radio Waves', count: 3 });
      expect((answer.topSongs.song ?? []).map((song) => song.id).slice(0, 2)).toEqual([
        String(third.id),
        String(second.id),
      ]);
      expect(ids((await api.shape('getTopSongs', { artist: 'Nobody At All' }, Top)).topSongs)).toEqual([]);
      await api.error('getTopSongs', {}, 10);
    });

    it('takes the artist by id (topSongsByArtistId), before any `artist` name, also through the npm client', async () => {
      const byName = ids((await api.shape('getTopSongs', { artist: 'Radio Waves', count: 4 }, Top)).topSongs);
      expect(byName).toHaveLength(4);
      for (const id of [`ar-${artistId}`, String(artistId)]) {
        const { topSongs } = await api.shape('getTopSongs', { id, artist: 'Quiet Other', count: 4 }, Top);
        expect(ids(topSongs)).toEqual(byName);
      }
      // The client's getTopSongs passes any parameter it is given.
      const args = { artist: '', id: `ar-${artistId}`, count: 4 };
      const answer = await client.getTopSongs(args);
      expect((answer.topSongs.song ?? []).map((song) => song.id)).toEqual(byName);
      const none = await api.shape('getTopSongs', { id: `ar-${artistId}`, count: 0 }, Top);
      expect(ids(none.topSongs)).toEqual([]);
    });

    it('answers 70 for an id that names no artist the caller sees, and keeps hidden songs out', async () => {
      for (const id of ['ar-999999', `al-${artistId}`, 'nonsense']) await api.error('getTopSongs', { id }, 70);
      // An empty id is none (as every parameter): then `artist` is needed.
      await api.error('getTopSongs', { id: '' }, 10);
      await api.error('getTopSongs', { id: `ar-${secretArtistId}` }, 70);
      const top = await api.shape('getTopSongs', { artist: 'Secret Band' }, Top);
      expect(ids(top.topSongs)).toEqual([]);
    });
  });
});
