import type { AddressInfo } from 'node:net';
import { SubsonicArtistInfo, SubsonicArtistInfo2, SubsonicSonicMatch } from '@tonearm/contract';
import { SubsonicAPI } from 'subsonic-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDialect } from '../../../../test/dialects.js';
import { insertSongs, makeAdmin, makeUser, type TestSong } from '../../../../test/factories.js';
import { hideSongs } from '../../../../test/listening.js';
import { apiKeyOf, subsonicApi, type SubsonicApi } from '../../../../test/subsonic.js';
import { subsonicFetch } from '../../../../test/subsonic-answers.js';
import { encodeVector } from '../../analysis/feature-layout.js';

const Matches = z.strictObject({ sonicMatch: z.array(SubsonicSonicMatch) });
const ArtistInfo = z.strictObject({ artistInfo: SubsonicArtistInfo });
const ArtistInfo2 = z.strictObject({ artistInfo2: SubsonicArtistInfo2 });

/**
 * What Subsonic apps get of issue 28's radio besides similar songs: OpenSubsonic's sonicSimilarity
 * (getSonicSimilarTracks, findSonicPath) and the similar artists of getArtistInfo and getArtistInfo2. Songs with
 * analysed audio (vectors written as the analyser writes them) in three sounds, songs without, and an artist in a
 * library the listener may not see; raw requests (JSON and XML) and the npm `subsonic-api` client.
 */
describeEachDialect('Subsonic sonic similarity and similar artists (%s)', { env: { SCAN_WATCH: '0' } }, (t) => {
  let api: SubsonicApi;
  let asAdmin: SubsonicApi;
  let client: SubsonicAPI;
  /** Pop, one sound; `twin` sounds like it, `far` not at all; `secret` like it too, but hidden from the listener. */
  let band: TestSong[];
  let twin: TestSong[];
  let far: TestSong[];
  let secret: TestSong[];
  /** Jazz, never analysed. */
  let plain: TestSong[];
  let bandArtist: number;

  const idOf = (songs: TestSong[], at = 0) => String(songs[at]?.id ?? 0);
  const idsOf = (songs: TestSong[]) => songs.map((song) => String(song.id));
  const matchIds = (answer: { sonicMatch: { entry: { id: string } }[] }) => answer.sonicMatch.map((m) => m.entry.id);
  const names = (artists: { name: string }[] | undefined) => (artists ?? []).map((artist) => artist.name);
  const artistOf = async (songs: TestSong[]) =>
    (
      await t.db
        .selectFrom('songs')
        .select('artist_id')
        .where('id', '=', Number(idOf(songs)))
        .executeTakeFirstOrThrow()
    ).artist_id ?? 0;

  /** Vectors as the analyser stores them: a sound each, a little apart song by song. */
  async function analyse(songs: TestSong[], sound: [number, number]) {
    for (const [i, song] of songs.entries()) {
      await t.db
        .insertInto('song_features')
        .values({
          song_id: song.id,
          version: 1,
          vector: encodeVector([sound[0] + i * 0.01, sound[1], 5]),
          failed: null,
          analysed_at: '2026-01-01T00:00:00Z',
        })
        .execute();
    }
  }

  beforeAll(async () => {
    const listener = await makeUser(t);
    api = subsonicApi(t, { apiKey: await apiKeyOf(t, listener) });
    asAdmin = subsonicApi(t, { apiKey: await apiKeyOf(t, await makeAdmin(t)) });
    [band, twin, far, secret, plain] = [
      await insertSongs(t, 6, 'Radio Waves'),
      await insertSongs(t, 4, 'Near Twin'),
      await insertSongs(t, 4, 'Far Away'),
      await insertSongs(t, 3, 'Secret Band'),
      await insertSongs(t, 3, 'Plain Jazz'),
    ];
    await t.db
      .updateTable('songs')
      .set({ genre: 'Jazz' })
      .where('id', 'in', [...plain.map((song) => song.id)])
      .execute();
    await analyse(band, [1, 0]);
    await analyse(twin, [1.005, 0.05]);
    await analyse(far, [-1, 3]);
    await analyse(secret, [1.002, 0]);
    await hideSongs(
      t,
      secret.map((song) => song.id),
      () => t.composition.services.libraryAccess.changed(),
    );
    await t.composition.services.radio.refresh();
    bandArtist = await artistOf(band);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    client = new SubsonicAPI({ url: base, auth: { apiKey: await apiKeyOf(t, listener) }, fetch: subsonicFetch() });
  });

  describe('getSonicSimilarTracks', () => {
    it("answers the song's radio without it, the most like its sound first, at most `count`", async () => {
      const answer = await api.shape('getSonicSimilarTracks', { id: idOf(band), count: 10 }, Matches);
      const found = matchIds(answer);
      expect(found).toHaveLength(10);
      expect(found).not.toContain(idOf(band));
      expect(new Set(found).size).toBe(found.length);
      const scores = answer.sonicMatch.map((match) => match.similarity);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
      // 1 is the same song: another, however close, scores below it.
      expect(scores.every((score) => score >= 0 && score < 1)).toBe(true);
      // Its own artist's and the twin's songs sound alike; the far songs, if any, come last and score low.
      expect(scores[0]).toBeGreaterThan(0.9);
      expect(found.some((id) => idsOf(twin).includes(id))).toBe(true);
      for (const match of answer.sonicMatch.filter((m) => idsOf(far).includes(m.entry.id))) {
        expect(match.similarity).toBeLessThan(0.5);
      }
    });

    it('never answers songs the caller may not see, and the same through the npm client', async () => {
      const answer = await api.shape('getSonicSimilarTracks', { id: idOf(band, 1), count: 50 }, Matches);
      expect(matchIds(answer).some((id) => idsOf(secret).includes(id))).toBe(false);
      const byClient = await client.customJSON<z.infer<typeof Matches>>('getSonicSimilarTracks', {
        id: idOf(band, 1),
        count: 50,
      });
      expect(matchIds(byClient)).toEqual(matchIds(answer));
      // An administrator sees every library: the hidden artist's songs, which sound like the band, are in theirs.
      const admins = await asAdmin.shape('getSonicSimilarTracks', { id: idOf(band, 1), count: 50 }, Matches);
      expect(matchIds(admins).some((id) => idsOf(secret).includes(id))).toBe(true);
    });

    it('answers -1 for songs without analysed audio, 10 songs by default, and nothing for count=0', async () => {
      const unanalysed = await api.shape('getSonicSimilarTracks', { id: idOf(plain) }, Matches);
      expect(matchIds(unanalysed).sort()).toEqual(idsOf(plain).slice(1).sort());
      expect(unanalysed.sonicMatch.every((match) => match.similarity === -1)).toBe(true);
      expect(matchIds(await api.shape('getSonicSimilarTracks', { id: idOf(band) }, Matches))).toHaveLength(10);
      expect(await api.shape('getSonicSimilarTracks', { id: idOf(band), count: 0 }, Matches)).toEqual({
        sonicMatch: [],
      });
    });

    it('answers 10 without an id, 70 for what names no song the caller sees', async () => {
      await api.error('getSonicSimilarTracks', {}, 10);
      for (const id of ['999999', `ar-${bandArtist}`, 'al-1', 'nonsense', idOf(secret)]) {
        await api.error('getSonicSimilarTracks', { id }, 70);
      }
      await api.error('getSonicSimilarTracks', { id: idOf(band), count: 'many' }, 0);
    });
  });

  describe('findSonicPath', () => {
    it("leads from the start song to the end song through the sounds between, each scored against the start's", async () => {
      const answer = await api.shape(
        'findSonicPath',
        { startSongId: idOf(band), endSongId: idOf(far, 3), count: 6 },
        Matches,
      );
      const path = matchIds(answer);
      expect(path[0]).toBe(idOf(band));
      expect(path.at(-1)).toBe(idOf(far, 3));
      expect(path.length).toBeGreaterThan(2);
      expect(path.length).toBeLessThanOrEqual(6);
      expect(new Set(path).size).toBe(path.length);
      expect(path.some((id) => idsOf(secret).includes(id))).toBe(false);
      expect(answer.sonicMatch[0]?.similarity).toBe(1);
      expect(answer.sonicMatch.at(-1)?.similarity).toBeLessThan(0.5);
      const byClient = await client.customJSON<z.infer<typeof Matches>>('findSonicPath', {
        startSongId: idOf(band),
        endSongId: idOf(far, 3),
        count: 6,
      });
      expect(matchIds(byClient)).toEqual(path);
    });

    it('answers the two ends alone when there is no room or no analysed audio, and one song from itself to itself', async () => {
      const short = { startSongId: idOf(band), endSongId: idOf(far), count: 1 };
      expect(matchIds(await api.shape('findSonicPath', short, Matches))).toEqual([idOf(band), idOf(far)]);
      const unanalysed = await api.shape('findSonicPath', { startSongId: idOf(plain), endSongId: idOf(band) }, Matches);
      expect(unanalysed.sonicMatch.map((match) => [match.entry.id, match.similarity])).toEqual([
        [idOf(plain), 1],
        [idOf(band), -1],
      ]);
      const itself = await api.shape('findSonicPath', { startSongId: idOf(band), endSongId: idOf(band) }, Matches);
      expect(matchIds(itself)).toEqual([idOf(band)]);
    });

    it('answers 10 without either end, 70 for an end that names no song the caller sees', async () => {
      await api.error('findSonicPath', { startSongId: idOf(band) }, 10);
      await api.error('findSonicPath', { endSongId: idOf(band) }, 10);
      for (const id of ['999999', `ar-${bandArtist}`, idOf(secret)]) {
        await api.error('findSonicPath', { startSongId: id, endSongId: idOf(band) }, 70);
        await api.error('findSonicPath', { startSongId: idOf(band), endSongId: id }, 70);
      }
    });
  });

  describe('similar artists in getArtistInfo and getArtistInfo2', () => {
    it("lists the artists of the songs the artist's radio chooses, the most chosen first, at most `count`", async () => {
      const { artistInfo2 } = await api.shape('getArtistInfo2', { id: `ar-${bandArtist}` }, ArtistInfo2);
      expect(names(artistInfo2.similarArtist)).toEqual(['Near Twin', 'Far Away']);
      const one = await api.shape('getArtistInfo2', { id: bandArtist, count: 1, includeNotPresent: true }, ArtistInfo2);
      expect(names(one.artistInfo2.similarArtist)).toEqual(['Near Twin']);
      const none = await api.shape('getArtistInfo2', { id: bandArtist, count: 0 }, ArtistInfo2);
      expect(none.artistInfo2.similarArtist).toBeUndefined();
      const byClient = await client.getArtistInfo2({ id: `ar-${bandArtist}` });
      expect(names(byClient.artistInfo2.similarArtist)).toEqual(['Near Twin', 'Far Away']);
    });

    it("getArtistInfo lists them as the folder model's artists, for an artist's or a song's id", async () => {
      for (const id of [`ar-${bandArtist}`, idOf(band, 2)]) {
        const { artistInfo } = await api.shape('getArtistInfo', { id }, ArtistInfo);
        expect(names(artistInfo.similarArtist)).toEqual(['Near Twin', 'Far Away']);
        expect(artistInfo.similarArtist?.every((artist) => artist.id.startsWith('ar-'))).toBe(true);
      }
    });

    it('never lists an artist the caller may not see', async () => {
      const { artistInfo2 } = await asAdmin.shape('getArtistInfo2', { id: `ar-${bandArtist}` }, ArtistInfo2);
      expect(names(artistInfo2.similarArtist)).toContain('Secret Band');
      const listener = await api.shape('getArtistInfo', { id: `ar-${bandArtist}`, count: 50 }, ArtistInfo);
      expect(names(listener.artistInfo.similarArtist)).not.toContain('Secret Band');
      await api.error('getArtistInfo2', { id: `ar-${await artistOf(secret)}` }, 70);
    });

    it('lists none for an artist whose songs lead to no other artist', async () => {
      const { artistInfo2 } = await api.shape('getArtistInfo2', { id: `ar-${await artistOf(plain)}` }, ArtistInfo2);
      expect(artistInfo2.similarArtist).toBeUndefined();
    });
  });
});
