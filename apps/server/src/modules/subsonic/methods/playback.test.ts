import { RecentPlaysResponse, SubsonicNowPlayingEntry } from '@tonearm/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDialect } from '../../../../test/dialects.js';
import { insertSongs, makeUser, type TestSong, type TestUser } from '../../../../test/factories.js';
import { apiKeyOf, subsonicApi, type SubsonicApi, type SubsonicQuery } from '../../../../test/subsonic.js';
import { PLAYED_AFTER_MS, playedAfter } from './playback.methods.js';

/**
 * OpenSubsonic playbackReport (issue 27): reportPlayback keeps an app's entry of getNowPlaying (state, position, rate)
 * and records the play as scrobble does, once per playback, once a report says it reached half the song or four
 * minutes. Raw requests here (every answer checked against the schemas in JSON and XML); the npm client's
 * reportPlayback in subsonic-client.test.ts.
 */

const NowPlaying = z.strictObject({ nowPlaying: z.strictObject({ entry: z.array(SubsonicNowPlayingEntry) }) });
const Empty = z.strictObject({});
/** Ten minutes long: a play counts from four minutes on. */
const LONG_MS = 600_000;

describe('playedAfter', () => {
  it('is half the song, or four minutes of a longer one, or four minutes when the length is unknown', () => {
    expect(playedAfter(60_000)).toBe(30_000);
    expect(playedAfter(479_999)).toBe(240_000);
    expect(playedAfter(LONG_MS)).toBe(PLAYED_AFTER_MS);
    expect(playedAfter(null)).toBe(PLAYED_AFTER_MS);
  });
});

describeEachDialect('Subsonic reportPlayback (%s)', (t) => {
  let alice: TestUser;
  let bob: TestUser;
  let aliceApi: SubsonicApi;
  let bobApi: SubsonicApi;
  let songs: TestSong[];

  const song = (index: number): TestSong => {
    const found = songs[index];
    if (found === undefined) throw new Error(`no song ${index}`);
    return found;
  };
  const report = (api: SubsonicApi, query: SubsonicQuery) =>
    api.shape('reportPlayback', { mediaType: 'song', c: 'Phone', ...query }, Empty);
  const playing = async () => (await bobApi.shape('getNowPlaying', {}, NowPlaying)).nowPlaying.entry;
  const playsOf = async (user: TestUser, songId: number) =>
    (await t.as(user).json('/api/plays/recent', RecentPlaysResponse)).filter((play) => play.songId === songId).length;
  const playCount = async (songId: number) =>
    (await t.db.selectFrom('songs').select('play_count').where('id', '=', songId).executeTakeFirstOrThrow()).play_count;
  /** Moves the client's last report back in time, as if it were `ms` old. */
  const reportedAgo = async (client: string, ms: number) => {
    const at = new Date(Date.now() - ms).toISOString();
    await t.db
      .updateTable('subsonic_now_playing')
      .set({ position_at: at, reported_at: at })
      .where('client', '=', client)
      .execute();
  };

  beforeAll(async () => {
    alice = await makeUser(t);
    bob = await makeUser(t);
    aliceApi = subsonicApi(t, { apiKey: await apiKeyOf(t, alice) });
    bobApi = subsonicApi(t, { apiKey: await apiKeyOf(t, bob) });
    songs = await insertSongs(t, 3, 'Report Artist');
    await t.db.updateTable('songs').set({ duration_ms: LONG_MS }).execute();
  });

  it('shows a starting playback in now playing, with its state, position and rate, and counts no play', async () => {
    await report(aliceApi, { mediaId: song(0).id, positionMs: 0, state: 'starting' });
    const [entry, ...others] = await playing();
    expect(others).toEqual([]);
    expect(entry).toMatchObject({
      id: String(song(0).id),
      username: alice.username,
      playerName: 'Phone',
      minutesAgo: 0,
      state: 'starting',
      positionMs: 0,
      playbackRate: 1,
    });
    expect(await playsOf(alice, song(0).id)).toBe(0);
  });

  it('moves the position on while playing, at the playback rate, and holds it while paused', async () => {
    await report(aliceApi, { mediaId: song(0).id, positionMs: 10_000, state: 'playing', playbackRate: 1.5 });
    await reportedAgo('Phone', 2_000);
    // One call (shape() asks twice, in JSON and XML, and the position moves on in between).
    const [moving] = NowPlaying.parse({ nowPlaying: (await bobApi.json('getNowPlaying')).nowPlaying }).nowPlaying.entry;
    expect(moving).toMatchObject({ state: 'playing', playbackRate: 1.5 });
    // 10 s reported, 2 s ago at 1.5×: 13 s (give or take the test's own time).
    expect(moving?.positionMs).toBeGreaterThanOrEqual(13_000);
    expect(moving?.positionMs).toBeLessThan(14_000);

    await report(aliceApi, { mediaId: song(0).id, positionMs: 20_000, state: 'paused' });
    await reportedAgo('Phone', 5_000);
    expect(await playing()).toMatchObject([{ state: 'paused', positionMs: 20_000, playbackRate: 1 }]);

    // Never past the song's end.
    await report(aliceApi, { mediaId: song(0).id, positionMs: LONG_MS - 1000, state: 'playing', playbackRate: 2 });
    await reportedAgo('Phone', 60_000);
    expect((await playing())[0]?.positionMs).toBe(LONG_MS);
  });

  it('records the play once per playback, when a report reaches four minutes, in the history and the count', async () => {
    const before = await playCount(song(1).id);
    await report(aliceApi, { mediaId: song(1).id, positionMs: 0, state: 'starting' });
    await report(aliceApi, { mediaId: song(1).id, positionMs: PLAYED_AFTER_MS - 1, state: 'playing' });
    expect(await playsOf(alice, song(1).id)).toBe(0);
    await report(aliceApi, { mediaId: song(1).id, positionMs: PLAYED_AFTER_MS, state: 'playing' });
    expect(await playsOf(alice, song(1).id)).toBe(1);
    await report(aliceApi, { mediaId: song(1).id, positionMs: PLAYED_AFTER_MS + 5000, state: 'paused' });
    await report(aliceApi, { mediaId: song(1).id, positionMs: PLAYED_AFTER_MS + 9000, state: 'stopped' });
    expect(await playCount(song(1).id)).toBe(before + 1);
    expect(await playsOf(bob, song(1).id)).toBe(0);
    // Stopped: the entry is gone.
    expect((await playing()).map((entry) => entry.playerName)).not.toContain('Phone');

    // A new playback of the same song counts again, even without a stop in between.
    await report(aliceApi, { mediaId: song(1).id, positionMs: 0, state: 'starting' });
    await report(aliceApi, { mediaId: song(1).id, positionMs: LONG_MS / 2, state: 'playing' });
    await report(aliceApi, { mediaId: song(1).id, positionMs: 0, state: 'starting' });
    await report(aliceApi, { mediaId: song(1).id, positionMs: LONG_MS - 1, state: 'stopped' });
    expect(await playCount(song(1).id)).toBe(before + 3);
  });

  it('counts a stop at the end of a playback, and nothing for a stop with none under way', async () => {
    const before = await playCount(song(2).id);
    await report(aliceApi, { mediaId: song(2).id, positionMs: 0, state: 'playing', c: 'Desk' });
    await report(aliceApi, { mediaId: song(2).id, positionMs: LONG_MS, state: 'stopped', c: 'Desk' });
    expect(await playCount(song(2).id)).toBe(before + 1);
    await report(aliceApi, { mediaId: song(2).id, positionMs: LONG_MS, state: 'stopped', c: 'Desk' });
    expect(await playCount(song(2).id)).toBe(before + 1);
  });

  it('with ignoreScrobble, keeps now playing up to date and counts nothing', async () => {
    const before = await playCount(song(2).id);
    await report(bobApi, { mediaId: song(2).id, positionMs: 0, state: 'starting', c: 'Car', ignoreScrobble: true });
    await report(bobApi, {
      mediaId: song(2).id,
      positionMs: LONG_MS - 1,
      state: 'paused',
      c: 'Car',
      ignoreScrobble: true,
    });
    expect((await playing()).find((entry) => entry.playerName === 'Car')).toMatchObject({
      username: bob.username,
      state: 'paused',
      positionMs: LONG_MS - 1,
    });
    await report(bobApi, {
      mediaId: song(2).id,
      positionMs: LONG_MS,
      state: 'stopped',
      c: 'Car',
      ignoreScrobble: true,
    });
    expect(await playCount(song(2).id)).toBe(before);
  });

  it("keeps each app's playback apart, and a plain now-playing scrobble has no playback state", async () => {
    await report(aliceApi, { mediaId: song(0).id, positionMs: 1000, state: 'paused', c: 'Tablet' });
    await aliceApi.shape('scrobble', { id: song(2).id, submission: false, c: 'Laptop' }, Empty);
    const entries = await playing();
    expect(entries.find((entry) => entry.playerName === 'Tablet')).toMatchObject({ state: 'paused', positionMs: 1000 });
    const laptop = entries.find((entry) => entry.playerName === 'Laptop');
    expect(laptop).toMatchObject({ id: String(song(2).id) });
    expect(laptop).not.toHaveProperty('state');
    expect(laptop).not.toHaveProperty('positionMs');
    // The same app reporting a playback then a plain scrobble: the state goes.
    await aliceApi.shape('scrobble', { id: song(0).id, submission: false, c: 'Tablet' }, Empty);
    expect((await playing()).find((entry) => entry.playerName === 'Tablet')).not.toHaveProperty('state');
  });

  it('refuses what is missing (10), malformed (0) or names no song (70), and changes nothing', async () => {
    const valid = { mediaId: song(0).id, mediaType: 'song', positionMs: 5, state: 'playing', c: 'Refused' };
    for (const name of ['mediaId', 'mediaType', 'positionMs', 'state'] as const) {
      const { [name]: _left, ...rest } = valid;
      await aliceApi.error('reportPlayback', rest, 10);
    }
    const malformed: SubsonicQuery[] = [
      { state: 'rewinding' },
      { mediaType: 'video' },
      { positionMs: 'soon' },
      { playbackRate: 'fast' },
      { playbackRate: 0 },
      { ignoreScrobble: 'yes' },
    ];
    for (const wrong of malformed) {
      await aliceApi.error('reportPlayback', { ...valid, ...wrong }, 0);
    }
    for (const wrong of [{ mediaType: 'podcast' }, { mediaId: 999_999 }, { mediaId: 'al-1' }]) {
      await aliceApi.error('reportPlayback', { ...valid, ...wrong }, 70);
    }
    expect((await playing()).map((entry) => entry.playerName)).not.toContain('Refused');
  });
});
