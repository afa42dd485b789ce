import { RecentPlaysResponse, SubsonicNowPlayingEntry, SubsonicPlayQueue, SubsonicUser } from '@tonearm/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDialect, type AppSuite } from '../../../../test/dialects.js';
import { insertSongs, makeAdmin, makeUser, type TestSong, type TestUser } from '../../../../test/factories.js';
import { apiKeyOf, subsonicApi, type SubsonicApi } from '../../../../test/subsonic.js';

/**
 * The Subsonic activity methods (issue 13): scrobble into the web app's play history, now playing, the saved play
 * queue (migration 012) and getUser. Each answer is checked against the OpenSubsonic type, in JSON and in XML.
 */

const NowPlayingAnswer = z.strictObject({ nowPlaying: z.strictObject({ entry: z.array(SubsonicNowPlayingEntry) }) });
const PlayQueueAnswer = z.strictObject({ playQueue: SubsonicPlayQueue });
const UserAnswer = z.strictObject({ user: SubsonicUser });
const Empty = z.strictObject({});
/** What getPlayQueue answers when nothing is saved: the required fields, no songs, changed never. */
const noQueue = (user: TestUser) => ({
  playQueue: { username: user.username, changed: '1970-01-01T00:00:00.000Z', changedBy: '' },
});

async function apiOf(t: AppSuite, user: TestUser): Promise<SubsonicApi> {
  return subsonicApi(t, { apiKey: await apiKeyOf(t, user) });
}

describeEachDialect('Subsonic activity methods (%s)', (t) => {
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let premium: TestUser;
  let adminApi: SubsonicApi;
  let aliceApi: SubsonicApi;
  let bobApi: SubsonicApi;
  let premiumApi: SubsonicApi;
  let songs: TestSong[];

  const recent = async (user: TestUser) => t.as(user).json('/api/plays/recent', RecentPlaysResponse);

  beforeAll(async () => {
    admin = await makeAdmin(t);
    alice = await makeUser(t);
    bob = await makeUser(t);
    premium = await makeUser(t, { premium: true });
    adminApi = await apiOf(t, admin);
    aliceApi = await apiOf(t, alice);
    bobApi = await apiOf(t, bob);
    premiumApi = await apiOf(t, premium);
    songs = await insertSongs(t, 4, 'Activity Artist');
  });

  const song = (index: number): TestSong => {
    const found = songs[index];
    if (found === undefined) throw new Error(`no song ${index}`);
    return found;
  };

  describe('scrobble', () => {
    it('records a submission in the play history the web app shows, at the time given', async () => {
      expect(await recent(alice)).toEqual([]);
      await aliceApi.shape('scrobble', { id: song(0).id }, Empty);
      let plays = await recent(alice);
      expect(plays.map((play) => play.songId)).toEqual([song(0).id]);

      const earlier = Date.parse('2024-05-01T12:00:00.000Z');
      await aliceApi.shape('scrobble', { id: [song(1).id, song(2).id], time: [earlier, earlier + 1000] }, Empty);
      plays = await recent(alice);
      expect(plays.map((play) => play.songId)).toEqual([song(0).id, song(2).id, song(1).id]);
      expect(plays.find((play) => play.songId === song(1).id)?.playedAt).toBe('2024-05-01T12:00:00.000Z');
      // Others' history is untouched.
      expect(await recent(bob)).toEqual([]);
      // Each scrobble counts in the song's plays, which Subsonic apps read as playCount (issue 26).
      const SongAnswer = z.object({ song: z.object({ playCount: z.number().int() }) });
      const playCount = async (id: number) => (await aliceApi.shape('getSong', { id }, SongAnswer)).song.playCount;
      const before = await playCount(song(1).id);
      expect(before).toBeGreaterThan(0);
      expect((await adminApi.json('scrobble', { id: song(1).id })).status).toBe('ok');
      expect(await playCount(song(1).id)).toBe(before + 1);
      expect(await playCount(song(3).id)).toBe(0);
    });

    it('records nothing when one id names no song, and checks its parameters', async () => {
      const counts = () => t.db.selectFrom('songs').select(['id', 'play_count']).orderBy('id').execute();
      const before = await counts();
      await bobApi.error('scrobble', { id: [song(0).id, 999_999] }, 70);
      await bobApi.error('scrobble', { id: 'al-1' }, 70);
      expect(await recent(bob)).toEqual([]);
      await bobApi.error('scrobble', {}, 10);
      await bobApi.error('scrobble', { id: [song(0).id, song(1).id], time: [1] }, 0);
      await bobApi.error('scrobble', { id: song(0).id, time: 'yesterday' }, 0);
      expect(await recent(bob)).toEqual([]);
      // Nor any play count.
      expect(await counts()).toEqual(before);
    });
  });

  describe('getNowPlaying', () => {
    it('lists what each app reported in the last minutes, as Child with who, when and where', async () => {
      await bobApi.shape('scrobble', { id: song(3).id, submission: false, c: 'Bob Phone' }, Empty);
      expect(await recent(bob)).toEqual([]);
      await bobApi.shape('scrobble', { id: song(2).id, submission: false, c: 'Bob Desk' }, Empty);
      // The same app reporting again replaces its entry.
      await bobApi.shape('scrobble', { id: song(1).id, submission: false, c: 'Bob Desk' }, Empty);

      const { nowPlaying } = await aliceApi.shape('getNowPlaying', {}, NowPlayingAnswer);
      const entries = nowPlaying.entry;
      expect(entries.map((entry) => [entry.id, entry.username, entry.playerName, entry.minutesAgo])).toEqual([
        [String(song(1).id), bob.username, 'Bob Desk', 0],
        [String(song(3).id), bob.username, 'Bob Phone', 0],
      ]);
      expect(entries[0]?.title).toBe(song(1).name);
      expect(new Set(entries.map((entry) => entry.playerId)).size).toBe(2);
    });

    it('leaves out reports older than ten minutes, and answers an empty list', async () => {
      const old = new Date(Date.now() - 11 * 60 * 1000).toISOString();
      await t.db.updateTable('subsonic_now_playing').set({ reported_at: old }).execute();
      expect(await aliceApi.shape('getNowPlaying', {}, NowPlayingAnswer)).toEqual({ nowPlaying: { entry: [] } });
      const minutes = new Date(Date.now() - 3 * 60 * 1000 - 5000).toISOString();
      await t.db
        .updateTable('subsonic_now_playing')
        .set({ reported_at: minutes })
        .where('client', '=', 'Bob Phone')
        .execute();
      const { nowPlaying } = await aliceApi.shape('getNowPlaying', {}, NowPlayingAnswer);
      expect(nowPlaying.entry.map((entry) => [entry.playerName, entry.minutesAgo])).toEqual([['Bob Phone', 3]]);
    });
  });

  describe('savePlayQueue and getPlayQueue', () => {
    it('answers a queue without songs before one is saved (playQueue, username, changed and changedBy are required)', async () => {
      expect(await premiumApi.shape('getPlayQueue', {}, PlayQueueAnswer)).toEqual(noQueue(premium));
    });

    it('saves the queue, its current song and position, and answers it on another device', async () => {
      const ids = [song(2).id, song(0).id, song(2).id];
      await premiumApi.shape('savePlayQueue', { id: ids, current: song(0).id, position: 83_500, c: 'Phone' }, Empty);
      const { playQueue } = await premiumApi.shape('getPlayQueue', { c: 'Desk' }, PlayQueueAnswer);
      expect(playQueue).toMatchObject({
        current: String(song(0).id),
        position: 83_500,
        username: premium.username,
        changedBy: 'Phone',
      });
      expect(playQueue.entry?.map((entry) => entry.id)).toEqual(ids.map(String));
      expect(Date.now() - Date.parse(playQueue.changed)).toBeLessThan(60_000);
      // Someone else's queue is their own.
      expect(await aliceApi.shape('getPlayQueue', {}, PlayQueueAnswer)).toEqual(noQueue(alice));
    });

    it('takes saves from two devices at once: one of them wins whole, none fails', async () => {
      const first = [song(0).id, song(1).id];
      const second = [song(2).id, song(3).id, song(0).id];
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          premiumApi.json('savePlayQueue', { id: i % 2 === 0 ? first : second, c: `Device ${i}` }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill('ok'));
      const { playQueue } = await premiumApi.shape('getPlayQueue', {}, PlayQueueAnswer);
      const saved = playQueue.entry?.map((entry) => Number(entry.id));
      expect([first, second]).toContainEqual(saved);
      // The queue the next tests find, as the test before this one saved it.
      const ids = [song(2).id, song(0).id, song(2).id];
      await premiumApi.shape('savePlayQueue', { id: ids, current: song(0).id, position: 83_500, c: 'Phone' }, Empty);
    });

    it('refuses unknown songs and a current song outside the queue, keeping the saved queue', async () => {
      await premiumApi.error('savePlayQueue', { id: [song(1).id, 999_999] }, 70);
      await premiumApi.error('savePlayQueue', { id: [song(1).id], current: song(3).id }, 0);
      await premiumApi.error('savePlayQueue', { id: [song(1).id], position: 'soon' }, 0);
      const { playQueue } = await premiumApi.shape('getPlayQueue', {}, PlayQueueAnswer);
      expect(playQueue.entry?.map((entry) => entry.id)).toEqual([song(2).id, song(0).id, song(2).id].map(String));
    });

    it('loses a deleted song from the queue (and as its current song), and clears the queue without ids', async () => {
      const [doomed] = await insertSongs(t, 1);
      if (doomed === undefined) throw new Error('no song');
      await premiumApi.shape('savePlayQueue', { id: [song(1).id, doomed.id], current: doomed.id, position: 5 }, Empty);
      await t.db.deleteFrom('songs').where('id', '=', doomed.id).execute();
      const { playQueue } = await premiumApi.shape('getPlayQueue', {}, PlayQueueAnswer);
      expect(playQueue.current).toBeUndefined();
      expect(playQueue.changedBy).toBe('unknown');
      expect(playQueue.entry?.map((entry) => entry.id)).toEqual([String(song(1).id)]);

      await premiumApi.shape('savePlayQueue', {}, Empty);
      expect(await premiumApi.shape('getPlayQueue', {}, PlayQueueAnswer)).toEqual(noQueue(premium));
    });

    it('leaves no rows of a deleted user', async () => {
      const doomed = await makeUser(t);
      const api = await apiOf(t, doomed);
      await api.shape('savePlayQueue', { id: [song(0).id, song(1).id] }, Empty);
      await api.shape('scrobble', { id: song(0).id, submission: false, c: 'Gone' }, Empty);
      await t.db.deleteFrom('users').where('id', '=', doomed.id).execute();
      for (const table of ['play_queues', 'play_queue_songs', 'subsonic_now_playing'] as const) {
        const rows = await t.db.selectFrom(table).select('user_id').where('user_id', '=', doomed.id).execute();
        expect(rows, table).toEqual([]);
      }
    });
  });

  describe('getUser', () => {
    it('answers the caller themselves, with roles from the access policy', async () => {
      const { user } = await aliceApi.shape('getUser', { username: alice.username.toUpperCase() }, UserAnswer);
      expect(user).toEqual({
        username: alice.username,
        scrobblingEnabled: true,
        adminRole: false,
        settingsRole: true,
        downloadRole: false,
        uploadRole: false,
        playlistRole: true,
        coverArtRole: false,
        commentRole: false,
        podcastRole: false,
        streamRole: true,
        jukeboxRole: false,
        shareRole: false,
        videoConversionRole: false,
        folder: [0],
      });
      expect((await premiumApi.shape('getUser', { username: premium.username }, UserAnswer)).user.downloadRole).toBe(
        true,
      );
    });

    it('answers anyone to an administrator', async () => {
      const { user } = await adminApi.shape('getUser', { username: bob.username }, UserAnswer);
      expect(user).toMatchObject({ username: bob.username, adminRole: false, downloadRole: false });
      const self = await adminApi.shape('getUser', { username: admin.username }, UserAnswer);
      expect(self.user).toMatchObject({ adminRole: true, downloadRole: true, uploadRole: true, coverArtRole: true });
      await adminApi.error('getUser', { username: 'nobody-by-this-name' }, 70);
    });

    it('refuses another user to a non-administrator (50), and wants a username (10)', async () => {
      await aliceApi.error('getUser', { username: bob.username }, 50);
      await aliceApi.error('getUser', { username: 'nobody-by-this-name' }, 50);
      await aliceApi.error('getUser', {}, 10);
    });
  });
});
