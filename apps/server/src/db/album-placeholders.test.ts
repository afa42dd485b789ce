import { UNKNOWN_ALBUM } from '@tonearm/contract';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../../test/dialects.js';
import { createAlbumsRepository } from '../modules/albums/albums.repository.js';
import { insertManySongs, insertSongs } from '../../test/factories.js';
import {
  deleteEmptyPlaceholders,
  moveToPlaceholders,
  placeholderAlbumId,
  placeSongsWithoutAlbum,
} from './album-placeholders.js';

describeEachDialect('placeholder albums (%s)', { uses: 'database', fresh: 'each' }, (t) => {
  /** The album a song is on, with its name, artist and kind. */
  const albumOf = (songId: number) =>
    t.db
      .selectFrom('album_tracks')
      .innerJoin('albums', 'albums.id', 'album_tracks.album_id')
      .select(['albums.id', 'albums.name', 'albums.artist_id', 'albums.is_placeholder', 'album_tracks.track_number'])
      .where('album_tracks.song_id', '=', songId)
      .executeTakeFirst();
  const artistOf = async (songId: number) =>
    (await t.db.selectFrom('songs').select('artist_id').where('id', '=', songId).executeTakeFirstOrThrow()).artist_id;
  const newAlbum = async (name: string, artistId: number | null) =>
    (
      await t.db
        .insertInto('albums')
        .values({ name, artist_id: artistId, year: null, image_key: null, created_at: new Date().toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

  it('keeps one placeholder per album artist, Unknown artist included, made when first needed', async () => {
    const [song] = await insertSongs(t, 1, 'Solo');
    const artistId = await artistOf(song?.id ?? 0);
    const placeholder = await albumOf(song?.id ?? 0);
    expect(placeholder).toMatchObject({ name: UNKNOWN_ALBUM, artist_id: artistId, is_placeholder: 1 });
    expect(await placeholderAlbumId(t.db, artistId)).toBe(placeholder?.id);
    const unknown = await placeholderAlbumId(t.db, null);
    expect(unknown).not.toBe(placeholder?.id);
    expect(await placeholderAlbumId(t.db, null)).toBe(unknown);
    const [orphan] = await insertManySongs(t, 1);
    expect((await albumOf(orphan ?? 0))?.id).toBe(unknown);
  });

  it('moves songs off their albums onto their own artists’ placeholders, without numbers', async () => {
    const songs = await insertSongs(t, 2, 'Movers');
    const artistId = await artistOf(songs[0]?.id ?? 0);
    const record = await newAlbum('Record', null);
    for (const song of songs) {
      await t.db
        .updateTable('album_tracks')
        .set({ album_id: record, track_number: 3 })
        .where('song_id', '=', song.id)
        .execute();
    }
    expect(await deleteEmptyPlaceholders(t.db, [await placeholderAlbumId(t.db, artistId), record])).toEqual([null]);
    await moveToPlaceholders(
      t.db,
      songs.map((song) => song.id),
    );
    for (const song of songs) {
      expect(await albumOf(song.id)).toMatchObject({ name: UNKNOWN_ALBUM, artist_id: artistId, track_number: null });
    }
    // The album they left is no placeholder: it stays, empty.
    expect(await deleteEmptyPlaceholders(t.db, [record])).toEqual([]);
    expect(await t.db.selectFrom('albums').select('id').where('id', '=', record).execute()).toEqual([{ id: record }]);
  });

  it('places every song on no album in one go, and nothing twice', async () => {
    const songs = await insertSongs(t, 3, 'Loose Ends');
    await t.db
      .deleteFrom('album_tracks')
      .where(
        'song_id',
        'in',
        songs.map((song) => song.id),
      )
      .execute();
    expect(await placeSongsWithoutAlbum(t.db)).toBe(3);
    expect(await placeSongsWithoutAlbum(t.db)).toBe(0);
    const placed = await Promise.all(songs.map((song) => albumOf(song.id)));
    expect(new Set(placed.map((album) => album?.id)).size).toBe(1);
    expect(placed[0]).toMatchObject({ name: UNKNOWN_ALBUM, is_placeholder: 1 });
  });

  // The catalogue writes queue on the catalogue_rows_version row (see album-placeholders.ts): the deletion, which comes
  // second, waits for the song's transaction and then sees the song.
  it('never deletes a placeholder under a song that a concurrent transaction is putting on it', async () => {
    const [leaving, arriving] = await insertSongs(t, 2, 'Racers');
    const artistId = await artistOf(leaving?.id ?? 0);
    const placeholder = await placeholderAlbumId(t.db, artistId);
    const elsewhere = await newAlbum('Elsewhere', artistId);
    // The arriving song starts on no album; the leaving one is the placeholder's only song.
    await t.db
      .deleteFrom('album_tracks')
      .where('song_id', '=', arriving?.id ?? 0)
      .execute();

    let held: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => (held = resolve));
    // Puts the arriving song on the placeholder, and commits only a while later.
    const arrival = t.db.transaction().execute(async (trx) => {
      const id = await placeholderAlbumId(trx, artistId);
      await trx
        .insertInto('album_tracks')
        .values({ song_id: arriving?.id ?? 0, album_id: id, disc_number: null, track_number: null })
        .execute();
      held();
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    await holding;
    // Meanwhile the leaving song moves to another album, and the placeholder it leaves is deleted if empty.
    const departure = t.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('album_tracks')
        .set({ album_id: elsewhere })
        .where('song_id', '=', leaving?.id ?? 0)
        .execute();
      return deleteEmptyPlaceholders(trx, [placeholder]);
    });
    await Promise.all([arrival, departure]);
    expect(await departure).toEqual([]);
    expect((await albumOf(arriving?.id ?? 0))?.id).toBe(placeholder);
    expect((await albumOf(leaving?.id ?? 0))?.id).toBe(elsewhere);
  });

  it('moves a song put on an album while the album is deleted to its placeholder, not onto nothing', async () => {
    const [kept, arriving] = await insertSongs(t, 2, 'Latecomers');
    const artistId = await artistOf(kept?.id ?? 0);
    const doomed = await newAlbum('Doomed', artistId);
    await t.db
      .updateTable('album_tracks')
      .set({ album_id: doomed })
      .where('song_id', '=', kept?.id ?? 0)
      .execute();

    let held: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const arrival = t.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('album_tracks')
        .set({ album_id: doomed })
        .where('song_id', '=', arriving?.id ?? 0)
        .execute();
      held();
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    await holding;
    const removal = createAlbumsRepository(t.db).remove(doomed);
    await Promise.all([arrival, removal]);
    expect(await removal).toBe(true);
    for (const song of [kept, arriving]) {
      expect(await albumOf(song?.id ?? 0)).toMatchObject({ name: UNKNOWN_ALBUM, artist_id: artistId });
    }
  });
});
