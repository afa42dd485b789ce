import { IMAGE_MAX_BYTES, PlaylistMessages, ServerMessages, type Playlist } from '@tonearm/contract';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import {
  insertSongs,
  makeAdmin,
  makePlaylist,
  makeUser,
  type TestSong,
  type TestUser,
} from '../../../test/factories.js';
import { errorOf } from '../../../test/harness.js';
import { imageFile, multipartBody } from '../../../test/media.js';
import { countBlobs, testBlobStore } from '../../../test/stored.js';
import { MultipartMessages } from '../../http/multipart.js';
import type { LocalBlobStore } from '../../storage/local-blob-store.js';

describeEachDialect('playlists API (%s)', (t) => {
  let store: LocalBlobStore;
  let admin: TestUser;
  let owner: TestUser;
  let other: TestUser;
  let premium: TestUser;
  let songs: TestSong[];

  beforeAll(async () => {
    store = testBlobStore(t.dataDir);
    admin = await makeAdmin(t);
    owner = await makeUser(t);
    other = await makeUser(t);
    premium = await makeUser(t, { premium: true });
    songs = await insertSongs(t, 6);
  });

  const song = (index: number): number => {
    const found = songs[index];
    if (found === undefined) throw new Error(`no song ${index}`);
    return found.id;
  };

  function call(method: InjectOptions['method'], url: string, user?: TestUser, options: InjectOptions = {}) {
    return t.as(user).inject({ ...options, method, url });
  }

  const create = (user: TestUser, fields: Record<string, unknown>) => makePlaylist(t, user, fields);

  async function positions(playlistId: number): Promise<{ song_id: number; position: number }[]> {
    return t.db
      .selectFrom('playlist_songs')
      .select(['song_id', 'position'])
      .where('playlist_id', '=', playlistId)
      .orderBy('position')
      .execute();
  }

  async function snapshot(playlistId: number) {
    const row = await t.db.selectFrom('playlists').selectAll().where('id', '=', playlistId).executeTakeFirst();
    return { row, songs: await positions(playlistId) };
  }

  const countPlaylists = async () =>
    (
      await t.db
        .selectFrom('playlists')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;

  describe('create', () => {
    it('creates from a multipart form with a cover, songs in order, owned by the caller', async () => {
      const before = await countBlobs(store, 'image');
      const form = multipartBody({
        name: 'Road trip',
        type: 'Mix',
        isPublic: 'true',
        songs: JSON.stringify([song(2), song(0), song(1)]),
        image: { filename: 'cover.png', type: 'image/png', data: await imageFile(16, 16) },
      });
      const response = await call('POST', '/api/playlists', owner, form);
      expect(response.statusCode, response.body).toBe(201);
      const playlist = response.json<Playlist>();
      expect(playlist).toMatchObject({
        name: 'Road trip',
        type: 'Mix',
        isPublic: true,
        userId: owner.id,
        songIds: [song(2), song(0), song(1)],
      });
      expect(playlist.imgLink).toMatch(/^\/media\/images\/[0-9a-f]{64}\.png$/);
      const key = playlist.imgLink?.split('/').pop() ?? '';
      expect(await store.stat('image', key)).not.toBeNull();
      // The original and its three thumbnails.
      expect(await countBlobs(store, 'image')).toBe(before + 4);
      expect((await positions(playlist.id)).map((p) => p.position)).toEqual([0, 1, 2]);
    });

    it('creates from JSON without a cover; private by default, type may be empty', async () => {
      const playlist = await create(owner, { name: 'Quiet', songs: [song(3)] });
      expect(playlist).toMatchObject({ name: 'Quiet', type: '', isPublic: false, imgLink: null, songIds: [song(3)] });
    });

    it('accepts a free-text type of exactly 40 characters and refuses 41', async () => {
      const ok = await create(owner, { name: 'Forty', type: 'x'.repeat(40) });
      expect(ok.type).toHaveLength(40);
      const response = await call('POST', '/api/playlists', owner, { payload: { name: 'Long', type: 'x'.repeat(41) } });
      expect(response.statusCode).toBe(400);
      expect(errorOf(response.body)).toMatchObject({ field: 'type', message: 'Type must be at most 40 characters' });
    });

    it('refuses bad fields with 400 naming the field, and writes nothing', async () => {
      const before = await countPlaylists();
      const cases: [Record<string, string>, string][] = [
        [{ type: 'Mix' }, 'name'],
        [{ name: '   ' }, 'name'],
        [{ name: 'X', songs: 'not json' }, 'songs'],
        [{ name: 'X', songs: '[1, "two"]' }, 'songs'],
        [{ name: 'X', isPublic: 'maybe' }, 'isPublic'],
      ];
      for (const [fields, field] of cases) {
        const response = await call('POST', '/api/playlists', owner, multipartBody(fields));
        expect(response.statusCode, JSON.stringify(fields)).toBe(400);
        expect(errorOf(response.body).field).toBe(field);
      }
      expect(await countPlaylists()).toBe(before);
    });

    it('refuses unknown song ids with 400 listing them, leaving no playlist and no cover behind', async () => {
      const playlistsBefore = await countPlaylists();
      const blobsBefore = await countBlobs(store, 'image');
      const form = multipartBody({
        name: 'Ghosts',
        songs: JSON.stringify([song(0), 999_998, 999_999]),
        image: { filename: 'c.png', type: 'image/png', data: await imageFile(20, 12) },
      });
      const response = await call('POST', '/api/playlists', owner, form);
      expect(response.statusCode).toBe(400);
      expect(errorOf(response.body)).toMatchObject({
        field: 'songs',
        message: `${PlaylistMessages.unknownSongs} 999998, 999999`,
      });
      expect(await countPlaylists()).toBe(playlistsBefore);
      expect(await countBlobs(store, 'image')).toBe(blobsBefore);
      expect(await store.sweepTemp(0)).toBe(0);
    });

    it('refuses a cover that is not an image with 415 and writes nothing', async () => {
      const before = await countPlaylists();
      const form = multipartBody({
        name: 'Fake cover',
        image: {
          filename: 'cover.png',
          type: 'image/png',
          data: Buffer.from('this is plain text, not a png'),
        },
      });
      const response = await call('POST', '/api/playlists', owner, form);
      expect(response.statusCode).toBe(415);
      expect(errorOf(response.body).field).toBe('image');
      expect(await countPlaylists()).toBe(before);
      expect(await store.sweepTemp(0)).toBe(0);
    });

    it('refuses a cover over the size limit and an over-long field with 413, leaving no file behind', async () => {
      const before = await countPlaylists();
      const blobsBefore = await countBlobs(store, 'image');
      const huge = multipartBody({
        name: 'Huge cover',
        image: { filename: 'big.png', type: 'image/png', data: Buffer.alloc(IMAGE_MAX_BYTES + 10, 1) },
      });
      const response = await call('POST', '/api/playlists', owner, huge);
      expect(response.statusCode).toBe(413);
      expect(errorOf(response.body).field).toBe('image');
      const longSongs = multipartBody({ name: 'Long', songs: `[${'1,'.repeat(200_000)}1]` });
      const tooLong = await call('POST', '/api/playlists', owner, longSongs);
      expect(tooLong.statusCode).toBe(413);
      expect(errorOf(tooLong.body).field).toBe('songs');
      expect(await countPlaylists()).toBe(before);
      expect(await countBlobs(store, 'image')).toBe(blobsBefore);
      // No staged temp file survives either.
      expect(await store.sweepTemp(0)).toBe(0);
    });

    it('refuses an unexpected file field and a body that is neither multipart nor JSON', async () => {
      const stray = multipartBody({
        name: 'Stray',
        songFile: { filename: 'a.mp3', type: 'audio/mpeg', data: Buffer.from('abc') },
      });
      const strayResponse = await call('POST', '/api/playlists', owner, stray);
      expect(strayResponse.statusCode).toBe(400);
      expect(errorOf(strayResponse.body).field).toBe('songFile');
      const text = await call('POST', '/api/playlists', owner, {
        payload: 'name=x',
        headers: { 'content-type': 'text/plain' },
      });
      expect(text.statusCode).toBe(415);
      expect(errorOf(text.body).message).toBe(MultipartMessages.notMultipart);
    });

    it('treats an empty file input as no cover', async () => {
      const form = multipartBody({
        name: 'No cover',
        image: { filename: '', type: 'application/octet-stream', data: Buffer.alloc(0) },
      });
      const response = await call('POST', '/api/playlists', owner, form);
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json<Playlist>().imgLink).toBeNull();
    });
  });

  describe('who may read', () => {
    let publicList: Playlist;
    let privateList: Playlist;

    beforeAll(async () => {
      publicList = await create(owner, { name: 'Shared', isPublic: true, songs: [song(0)] });
      privateList = await create(owner, { name: 'Secret', isPublic: false, songs: [song(1)] });
    });

    it('answers 401 to anonymous callers on every route', async () => {
      const id = publicList.id;
      const routes: [InjectOptions['method'], string][] = [
        ['GET', '/api/playlists'],
        ['GET', '/api/playlists/admin'],
        ['GET', `/api/playlists/user/${owner.id}`],
        ['GET', `/api/playlists/${id}`],
        ['POST', '/api/playlists'],
        ['PUT', `/api/playlists/updatePlaylist/${id}`],
        ['PUT', `/api/playlists/${id}/songs/${song(2)}`],
        ['DELETE', `/api/playlists/${id}/songs/${song(0)}`],
        ['DELETE', `/api/playlists/${id}`],
      ];
      for (const [method, url] of routes) {
        const response = await call(
          method,
          url,
          undefined,
          method === 'GET' || method === 'DELETE' ? {} : { payload: {} },
        );
        expect(response.statusCode, `${method} ${url}`).toBe(401);
      }
      const order = await call('PUT', `/api/playlists/${id}/order`, undefined, { payload: { songIds: [song(0)] } });
      expect(order.statusCode).toBe(401);
      expect((await snapshot(id)).songs).toHaveLength(1);
    });

    it('shows a public playlist to everyone signed in, a private one only to its owner and admins', async () => {
      for (const user of [owner, other, premium, admin]) {
        const response = await call('GET', `/api/playlists/${publicList.id}`, user);
        expect(response.statusCode).toBe(200);
        expect(response.json<Playlist>()).toEqual(publicList);
      }
      for (const user of [owner, admin]) {
        expect((await call('GET', `/api/playlists/${privateList.id}`, user)).statusCode).toBe(200);
      }
      for (const user of [other, premium]) {
        const response = await call('GET', `/api/playlists/${privateList.id}`, user);
        expect(response.statusCode).toBe(404);
        expect(errorOf(response.body).message).toBe(ServerMessages.notFound);
      }
      expect((await call('GET', '/api/playlists/987654', owner)).statusCode).toBe(404);
      expect((await call('GET', '/api/playlists/abc', owner)).statusCode).toBe(400);
    });

    it('lists own and public playlists for a user, every playlist for an admin', async () => {
      const mine = await create(other, { name: 'Other private' });
      const forOther = (await call('GET', '/api/playlists', other)).json<Playlist[]>().map((p) => p.id);
      expect(forOther).toContain(publicList.id);
      expect(forOther).toContain(mine.id);
      expect(forOther).not.toContain(privateList.id);
      const forAdmin = (await call('GET', '/api/playlists', admin)).json<Playlist[]>().map((p) => p.id);
      expect(forAdmin).toEqual(expect.arrayContaining([publicList.id, privateList.id, mine.id]));
    });

    it('GET /api/playlists/admin lists every playlist for admins and is 403 for everyone else', async () => {
      const response = await call('GET', '/api/playlists/admin', admin);
      expect(response.statusCode).toBe(200);
      const ids = response.json<Playlist[]>().map((p) => p.id);
      expect(ids).toEqual(expect.arrayContaining([publicList.id, privateList.id]));
      expect(ids).toHaveLength(await countPlaylists());
      for (const user of [owner, other, premium]) {
        const refused = await call('GET', '/api/playlists/admin', user);
        expect(refused.statusCode).toBe(403);
        expect(errorOf(refused.body).message).toBe(ServerMessages.forbidden);
      }
    });

    it('GET /api/playlists/user/{id}: all of them to that user and admins, 404 to another user', async () => {
      const own = (await call('GET', `/api/playlists/user/${owner.id}`, owner)).json<Playlist[]>();
      expect(own.map((p) => p.id)).toEqual(expect.arrayContaining([publicList.id, privateList.id]));
      expect(own.every((p) => p.userId === owner.id)).toBe(true);
      const byAdmin = await call('GET', `/api/playlists/user/${owner.id}`, admin);
      expect(byAdmin.json<Playlist[]>()).toEqual(own);
      for (const user of [other, premium]) {
        expect((await call('GET', `/api/playlists/user/${owner.id}`, user)).statusCode).toBe(404);
        // Same answer for an id that does not exist: nothing is learned about which users exist.
        expect((await call('GET', '/api/playlists/user/987654', user)).statusCode).toBe(404);
      }
      expect((await call('GET', '/api/playlists/user/987654', admin)).statusCode).toBe(404);
    });

    it('pages lists with limit and offset', async () => {
      const all = (await call('GET', '/api/playlists/admin', admin)).json<Playlist[]>();
      const page = (await call('GET', '/api/playlists/admin?limit=2&offset=1', admin)).json<Playlist[]>();
      expect(page).toEqual(all.slice(1, 3));
      expect((await call('GET', '/api/playlists?limit=0', admin)).statusCode).toBe(400);
    });
  });

  describe('songs in a playlist', () => {
    it('adds a song at the end with the spec text, and refuses a duplicate with 409', async () => {
      const playlist = await create(owner, { name: 'Adds', songs: [song(0)] });
      const added = await call('PUT', `/api/playlists/${playlist.id}/songs/${song(1)}`, owner);
      expect(added.statusCode).toBe(200);
      expect(added.headers['content-type']).toMatch(/^text\/plain/);
      expect(added.body).toBe(ServerMessages.songAddedToPlaylist);
      const again = await call('PUT', `/api/playlists/${playlist.id}/songs/${song(1)}`, owner);
      expect(again.statusCode).toBe(409);
      expect(errorOf(again.body).message).toBe(ServerMessages.songAlreadyInPlaylist);
      expect(await positions(playlist.id)).toEqual([
        { song_id: song(0), position: 0 },
        { song_id: song(1), position: 1 },
      ]);
    });

    it('answers 404 for a song that is not in the catalogue', async () => {
      const playlist = await create(owner, { name: 'Missing song' });
      const response = await call('PUT', `/api/playlists/${playlist.id}/songs/987654`, owner);
      expect(response.statusCode).toBe(404);
      expect(errorOf(response.body).message).toBe(PlaylistMessages.songNotFound);
      expect(await positions(playlist.id)).toEqual([]);
    });

    it('removes a song with the text answer and keeps positions 0..n-1', async () => {
      const playlist = await create(owner, { name: 'Removes', songs: [song(0), song(1), song(2), song(3)] });
      const removed = await call('DELETE', `/api/playlists/${playlist.id}/songs/${song(1)}`, owner);
      expect(removed.statusCode).toBe(200);
      expect(removed.body).toBe(ServerMessages.songRemovedFromPlaylist);
      expect(await positions(playlist.id)).toEqual([
        { song_id: song(0), position: 0 },
        { song_id: song(2), position: 1 },
        { song_id: song(3), position: 2 },
      ]);
      const notThere = await call('DELETE', `/api/playlists/${playlist.id}/songs/${song(1)}`, owner);
      expect(notThere.statusCode).toBe(404);
      expect(errorOf(notThere.body).message).toBe(PlaylistMessages.songNotInPlaylist);
    });

    it('reorders to any permutation of its songs and refuses anything else with 400, unchanged', async () => {
      const playlist = await create(owner, { name: 'Order', songs: [song(0), song(1), song(2)] });
      const reordered = await call('PUT', `/api/playlists/${playlist.id}/order`, owner, {
        payload: { songIds: [song(2), song(0), song(1)] },
      });
      expect(reordered.statusCode, reordered.body).toBe(200);
      expect(reordered.json<Playlist>().songIds).toEqual([song(2), song(0), song(1)]);
      expect((await positions(playlist.id)).map((p) => [p.song_id, p.position])).toEqual([
        [song(2), 0],
        [song(0), 1],
        [song(1), 2],
      ]);
      const before = await snapshot(playlist.id);
      const wrong = [
        [song(2), song(0)],
        [song(2), song(0), song(1), song(3)],
        [song(2), song(0), song(0)],
        [song(2), song(0), song(4)],
      ];
      for (const songIds of wrong) {
        const response = await call('PUT', `/api/playlists/${playlist.id}/order`, owner, { payload: { songIds } });
        expect(response.statusCode).toBe(400);
        expect(errorOf(response.body)).toMatchObject({
          field: 'songIds',
          message: PlaylistMessages.orderNotPermutation,
        });
      }
      const malformed = await call('PUT', `/api/playlists/${playlist.id}/order`, owner, { payload: { songIds: 'x' } });
      expect(malformed.statusCode).toBe(400);
      expect(await snapshot(playlist.id)).toEqual(before);
    });

    it('drops songs deleted from the catalogue cleanly, and the next write closes the gap', async () => {
      const [doomed] = await insertSongs(t, 1);
      if (doomed === undefined) throw new Error('no song');
      const playlist = await create(owner, { name: 'Catalogue', songs: [song(0), doomed.id, song(1)] });
      await t.db.deleteFrom('songs').where('id', '=', doomed.id).execute();
      const read = await call('GET', `/api/playlists/${playlist.id}`, owner);
      expect(read.json<Playlist>().songIds).toEqual([song(0), song(1)]);
      await call('PUT', `/api/playlists/${playlist.id}/songs/${song(2)}`, owner);
      expect(await positions(playlist.id)).toEqual([
        { song_id: song(0), position: 0 },
        { song_id: song(1), position: 1 },
        { song_id: song(2), position: 2 },
      ]);
    });
  });

  describe('edit and delete', () => {
    it('renames, retypes, publishes, replaces the songs and the cover; only sent fields change', async () => {
      const playlist = await create(owner, { name: 'Draft', type: 'Old', songs: [song(0), song(1)] });
      const renamed = await call('PUT', `/api/playlists/updatePlaylist/${playlist.id}`, owner, {
        payload: { name: 'Final' },
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json<Playlist>()).toMatchObject({
        name: 'Final',
        type: 'Old',
        isPublic: false,
        songIds: [song(0), song(1)],
      });

      const form = multipartBody({
        type: 'Party',
        isPublic: 'true',
        songs: JSON.stringify([song(1), song(3)]),
        image: { filename: 'new.png', type: 'image/png', data: await imageFile(30, 30) },
      });
      const edited = await call('PUT', `/api/playlists/updatePlaylist/${playlist.id}`, owner, form);
      expect(edited.statusCode, edited.body).toBe(200);
      const body = edited.json<Playlist>();
      expect(body).toMatchObject({ name: 'Final', type: 'Party', isPublic: true, songIds: [song(1), song(3)] });
      expect(body.imgLink).toMatch(/^\/media\/images\/[0-9a-f]{64}\.png$/);
      expect((await positions(playlist.id)).map((p) => p.position)).toEqual([0, 1]);

      const cleared = await call('PUT', `/api/playlists/updatePlaylist/${playlist.id}`, owner, {
        payload: { removeImage: true },
      });
      expect(cleared.json<Playlist>().imgLink).toBeNull();
    });

    it('deletes a replaced or removed cover, and a deleted playlist’s cover, unless another row still uses it', async () => {
      const keyOf = (playlist: Playlist) => playlist.imgLink?.split('/').pop() ?? '';
      const coverForm = async (fields: Record<string, string>, size: number) =>
        multipartBody({
          ...fields,
          image: { filename: 'c.png', type: 'image/png', data: await imageFile(size, size) },
        });
      const first = (
        await call('POST', '/api/playlists', owner, await coverForm({ name: 'Covers' }, 41))
      ).json<Playlist>();
      const firstKey = keyOf(first);
      // A second playlist with the very same image shares the blob.
      const twin = (
        await call('POST', '/api/playlists', other, await coverForm({ name: 'Twin' }, 41))
      ).json<Playlist>();
      expect(keyOf(twin)).toBe(firstKey);

      const replaced = await call('PUT', `/api/playlists/updatePlaylist/${first.id}`, owner, await coverForm({}, 42));
      const secondKey = keyOf(replaced.json<Playlist>());
      expect(secondKey).not.toBe(firstKey);
      // Still used by the twin, so it stays.
      expect(await store.stat('image', firstKey)).not.toBeNull();

      await call('PUT', `/api/playlists/updatePlaylist/${first.id}`, owner, { payload: { removeImage: 'true' } });
      expect(await store.stat('image', secondKey)).toBeNull();

      expect((await call('DELETE', `/api/playlists/${twin.id}`, other)).statusCode).toBe(200);
      expect(await store.stat('image', firstKey)).toBeNull();
    });

    it('refuses an edit with unknown songs or a bad field, changing nothing', async () => {
      const playlist = await create(owner, { name: 'Stable', songs: [song(0)] });
      const before = await snapshot(playlist.id);
      const unknown = await call('PUT', `/api/playlists/updatePlaylist/${playlist.id}`, owner, {
        payload: { name: 'Changed', songs: [song(1), 999_999] },
      });
      expect(unknown.statusCode).toBe(400);
      expect(errorOf(unknown.body).field).toBe('songs');
      const badType = await call('PUT', `/api/playlists/updatePlaylist/${playlist.id}`, owner, {
        payload: { type: 'y'.repeat(41) },
      });
      expect(badType.statusCode).toBe(400);
      expect(await snapshot(playlist.id)).toEqual(before);
    });

    it('deletes with the text answer; the playlist and its song rows are gone', async () => {
      const playlist = await create(owner, { name: 'Doomed', songs: [song(0), song(1)] });
      const response = await call('DELETE', `/api/playlists/${playlist.id}`, owner);
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(PlaylistMessages.playlistDeleted);
      expect((await call('GET', `/api/playlists/${playlist.id}`, owner)).statusCode).toBe(404);
      expect(await positions(playlist.id)).toEqual([]);
      expect((await call('DELETE', `/api/playlists/${playlist.id}`, owner)).statusCode).toBe(404);
    });

    it('lets an admin edit and delete any playlist', async () => {
      const playlist = await create(owner, { name: 'Moderated' });
      const add = await call('PUT', `/api/playlists/${playlist.id}/songs/${song(0)}`, admin);
      expect(add.statusCode).toBe(200);
      const edit = await call('PUT', `/api/playlists/updatePlaylist/${playlist.id}`, admin, {
        payload: { name: 'Mod' },
      });
      expect(edit.json<Playlist>()).toMatchObject({ name: 'Mod', userId: owner.id, songIds: [song(0)] });
      expect((await call('DELETE', `/api/playlists/${playlist.id}`, admin)).statusCode).toBe(200);
    });
  });

  describe('IDOR: another user changes nothing', () => {
    it('gets 403 on a public playlist and 404 on a private one for every write, and nothing changes', async () => {
      const shared = await create(owner, { name: 'Public target', isPublic: true, songs: [song(0), song(1)] });
      const hidden = await create(owner, { name: 'Private target', songs: [song(0), song(1)] });
      for (const [playlist, status] of [
        [shared, 403],
        [hidden, 404],
      ] as const) {
        const before = await snapshot(playlist.id);
        const attempts: [InjectOptions['method'], string, InjectOptions][] = [
          ['PUT', `/api/playlists/updatePlaylist/${playlist.id}`, { payload: { name: 'Hacked', isPublic: true } }],
          ['PUT', `/api/playlists/${playlist.id}/songs/${song(4)}`, {}],
          ['DELETE', `/api/playlists/${playlist.id}/songs/${song(0)}`, {}],
          ['PUT', `/api/playlists/${playlist.id}/order`, { payload: { songIds: [song(1), song(0)] } }],
          ['DELETE', `/api/playlists/${playlist.id}`, {}],
        ];
        for (const user of [other, premium]) {
          for (const [method, url, options] of attempts) {
            const response = await call(method, url, user, options);
            expect(response.statusCode, `${user.username} ${method} ${url}`).toBe(status);
          }
        }
        const cover = multipartBody({
          name: 'Hacked',
          image: { filename: 'x.png', type: 'image/png', data: await imageFile(10, 10) },
        });
        expect((await call('PUT', `/api/playlists/updatePlaylist/${playlist.id}`, other, cover)).statusCode).toBe(
          status,
        );
        expect(await snapshot(playlist.id)).toEqual(before);
      }
    });
  });
});
