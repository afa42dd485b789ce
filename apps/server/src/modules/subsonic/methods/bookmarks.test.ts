import { SubsonicBookmark, SubsonicMessages } from '@tonearm/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDialect } from '../../../../test/dialects.js';
import { insertSongs, makeUser, type TestSong, type TestUser } from '../../../../test/factories.js';
import { apiKeyOf, subsonicApi, type SubsonicApi } from '../../../../test/subsonic.js';
import { BOOKMARK_COMMENT_MAX } from './bookmarks.methods.js';

/**
 * Subsonic bookmarks (issue 27, migration 025): a resume point per user and song, created or moved by createBookmark,
 * listed by getBookmarks (each with its song as `entry`), removed by deleteBookmark. Every answer is checked against
 * the OpenSubsonic schemas in JSON and XML (test/subsonic-answers.ts).
 */

const Bookmarks = z.strictObject({ bookmarks: z.strictObject({ bookmark: z.array(SubsonicBookmark).optional() }) });
const Empty = z.strictObject({});

describeEachDialect('Subsonic bookmarks (%s)', (t) => {
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
  const bookmarksOf = async (api: SubsonicApi) => (await api.shape('getBookmarks', {}, Bookmarks)).bookmarks.bookmark;
  const rowsOf = (column: 'user_id' | 'song_id', id: number) =>
    t.db.selectFrom('subsonic_bookmarks').select('song_id').where(column, '=', id).execute();

  beforeAll(async () => {
    alice = await makeUser(t);
    bob = await makeUser(t);
    aliceApi = subsonicApi(t, { apiKey: await apiKeyOf(t, alice) });
    bobApi = subsonicApi(t, { apiKey: await apiKeyOf(t, bob) });
    songs = await insertSongs(t, 3, 'Audiobook Reader');
  });

  describe('createBookmark and getBookmarks', () => {
    it('answers no bookmark before any is made', async () => {
      expect(await bookmarksOf(aliceApi)).toEqual([]);
    });

    it('keeps a resume point with its comment, and answers it with its song', async () => {
      await aliceApi.shape('createBookmark', { id: song(0).id, position: 120_000, comment: ' Chapter 3 ' }, Empty);
      const [mark, ...others] = (await bookmarksOf(aliceApi)) ?? [];
      expect(others).toEqual([]);
      expect(mark).toMatchObject({ position: 120_000, username: alice.username, comment: 'Chapter 3' });
      expect(mark?.entry).toMatchObject({ id: String(song(0).id), title: song(0).name, bookmarkPosition: 120_000 });
      // shape() saves it twice (in JSON, then in XML): the second moves it, after it was made.
      expect(Date.parse(mark?.changed ?? '')).toBeGreaterThanOrEqual(Date.parse(mark?.created ?? ''));
      expect(Date.now() - Date.parse(mark?.created ?? '')).toBeLessThan(60_000);
    });

    it('moves the bookmark of a song already marked: a new position and comment, the same creation date', async () => {
      const [before] = (await bookmarksOf(aliceApi)) ?? [];
      await new Promise((resolve) => setTimeout(resolve, 5));
      await aliceApi.shape('createBookmark', { id: song(0).id, position: 130_500 }, Empty);
      const [after, ...others] = (await bookmarksOf(aliceApi)) ?? [];
      expect(others).toEqual([]);
      expect(after).toMatchObject({ position: 130_500, created: before?.created });
      expect(after?.comment).toBeUndefined();
      expect(Date.parse(after?.changed ?? '')).toBeGreaterThan(Date.parse(after?.created ?? ''));
    });

    it('lists the most recently changed first, and each user sees only their own', async () => {
      await aliceApi.shape('createBookmark', { id: song(1).id, position: 0 }, Empty);
      expect((await bookmarksOf(aliceApi))?.map((mark) => mark.entry.id)).toEqual([song(1).id, song(0).id].map(String));
      expect(await bookmarksOf(bobApi)).toEqual([]);
      await bobApi.shape('createBookmark', { id: song(1).id, position: 9_000 }, Empty);
      expect((await bookmarksOf(bobApi))?.map((mark) => [mark.entry.id, mark.position])).toEqual([
        [String(song(1).id), 9_000],
      ]);
      const alices = await bookmarksOf(aliceApi);
      expect(alices?.find((mark) => mark.entry.id === String(song(1).id))?.position).toBe(0);
    });

    it('refuses what names no song (70), a missing id or position (10), a malformed position or long comment (0)', async () => {
      await aliceApi.error('createBookmark', { id: 999_999, position: 5 }, 70);
      await aliceApi.error('createBookmark', { id: 'al-1', position: 5 }, 70);
      await aliceApi.error('createBookmark', { position: 5 }, 10);
      await aliceApi.error('createBookmark', { id: song(2).id }, 10);
      await aliceApi.error('createBookmark', { id: song(2).id, position: 'half' }, 0);
      const long = await aliceApi.error(
        'createBookmark',
        { id: song(2).id, position: 5, comment: 'x'.repeat(BOOKMARK_COMMENT_MAX + 1) },
        0,
      );
      expect(long).toBe(SubsonicMessages.commentTooLong(BOOKMARK_COMMENT_MAX));
      // Nothing was written by any of them.
      expect((await bookmarksOf(aliceApi))?.map((mark) => mark.entry.id)).not.toContain(String(song(2).id));
    });
  });

  describe('deleteBookmark', () => {
    it("removes the caller's bookmark only; a second time, or none, is 70", async () => {
      // Once (shape() would ask twice, and the second finds nothing: 70).
      expect(await aliceApi.json('deleteBookmark', { id: song(1).id })).toMatchObject({ status: 'ok' });
      expect((await bookmarksOf(aliceApi))?.map((mark) => mark.entry.id)).toEqual([String(song(0).id)]);
      expect((await bookmarksOf(bobApi))?.map((mark) => mark.entry.id)).toEqual([String(song(1).id)]);
      await aliceApi.error('deleteBookmark', { id: song(1).id }, 70);
      await aliceApi.error('deleteBookmark', { id: 999_999 }, 70);
      await aliceApi.error('deleteBookmark', {}, 10);
    });
  });

  it('goes with its song and with its user (cascade)', async () => {
    const [doomed] = await insertSongs(t, 1);
    if (doomed === undefined) throw new Error('no song');
    await aliceApi.shape('createBookmark', { id: doomed.id, position: 1 }, Empty);
    expect(await rowsOf('song_id', doomed.id)).toHaveLength(1);
    await t.db.deleteFrom('songs').where('id', '=', doomed.id).execute();
    expect(await rowsOf('song_id', doomed.id)).toEqual([]);
    expect((await bookmarksOf(aliceApi))?.map((mark) => mark.entry.id)).toEqual([String(song(0).id)]);

    const leaving = await makeUser(t);
    const api = subsonicApi(t, { apiKey: await apiKeyOf(t, leaving) });
    await api.shape('createBookmark', { id: song(2).id, position: 1 }, Empty);
    await t.db.deleteFrom('users').where('id', '=', leaving.id).execute();
    expect(await rowsOf('user_id', leaving.id)).toEqual([]);
  });
});
