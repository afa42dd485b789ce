import { SubsonicAlbumInfo, SubsonicArtistInfo, SubsonicArtistInfo2 } from '@tonearm/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDialect } from '../../../../test/dialects.js';
import { makeAdmin, makeArtist, makeSong, makeUser, placeOnAlbum, type TestUser } from '../../../../test/factories.js';
import { picture } from '../../../../test/media.js';
import { apiKeyOf, subsonicApi, type SubsonicApi } from '../../../../test/subsonic.js';

/**
 * getArtistInfo (the folder model's, by an artist's, an album's or a song's id), getArtistInfo2, getAlbumInfo and
 * getAlbumInfo2 (issue 27): what Tonearm knows, its pictures as URLs of the stored thumbnails and the MusicBrainz ids
 * the tags gave, and nothing made up (no biography, no notes). Checked in JSON and XML against the OpenSubsonic
 * schemas.
 */

const ArtistInfo = z.strictObject({ artistInfo: SubsonicArtistInfo });
const ArtistInfo2 = z.strictObject({ artistInfo2: SubsonicArtistInfo2 });
const AlbumInfo = z.strictObject({ albumInfo: SubsonicAlbumInfo });

const ARTIST_MBID = '5b11f4ce-a62d-471e-81fc-a69a8278c7da';
const RELEASE_MBID = 'f5093c06-23e3-404f-aeaa-40f72885ee3a';

/** The three image URLs of a stored picture, as the answers write them (the app reached the server as localhost). */
const imagesOf = (key: string) => ({
  smallImageUrl: `http://localhost:80/media/images/${key}?w=64`,
  mediumImageUrl: `http://localhost:80/media/images/${key}?w=300`,
  largeImageUrl: `http://localhost:80/media/images/${key}?w=640`,
});

describeEachDialect('Subsonic artist and album info (%s)', (t) => {
  let admin: TestUser;
  let api: SubsonicApi;
  let artistId: number;
  let bareArtistId: number;
  let artistImage: string;
  let trackImage: string;
  let songId: number;
  let looseSongId: number;
  let albumId: number;
  let coveredAlbumId: number;
  let placeholderId: number;

  const imageKeyOf = async (table: 'artists' | 'songs', id: number) =>
    (await t.db.selectFrom(table).select('image_key').where('id', '=', id).executeTakeFirstOrThrow()).image_key ?? '';
  const insertAlbum = async (name: string, imageKey: string | null, mbid: string | null) =>
    (
      await t.db
        .insertInto('albums')
        .values({
          name,
          artist_id: artistId,
          year: 2001,
          image_key: imageKey,
          mb_release_id: mbid,
          created_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

  beforeAll(async () => {
    admin = await makeAdmin(t);
    api = subsonicApi(t, { apiKey: await apiKeyOf(t, await makeUser(t)) });
    artistId = await makeArtist(t, admin, 'Info Artist', await picture(41));
    await t.db.updateTable('artists').set({ mb_artist_id: ARTIST_MBID }).where('id', '=', artistId).execute();
    bareArtistId = await makeArtist(t, admin, 'Bare Artist');
    artistImage = await imageKeyOf('artists', artistId);
    songId = await makeSong(t, admin, { name: 'Track With A Picture', artistId, cover: await picture(42) });
    trackImage = await imageKeyOf('songs', songId);
    // A song without an album of its own: on its artist's placeholder album, which shows no track's picture.
    looseSongId = await makeSong(t, admin, { name: 'Loose Track', artistId, cover: await picture(43) });
    albumId = await insertAlbum('Info Album', null, RELEASE_MBID);
    await placeOnAlbum(t, songId, albumId, 1, 1);
    coveredAlbumId = await insertAlbum('Covered Album', artistImage, null);
    placeholderId = (
      await t.db
        .selectFrom('album_tracks')
        .select('album_id')
        .where('song_id', '=', looseSongId)
        .executeTakeFirstOrThrow()
    ).album_id;
  });

  describe('getArtistInfo and getArtistInfo2', () => {
    it("answer the artist's picture and MusicBrainz id, and no biography", async () => {
      const expected = { musicBrainzId: ARTIST_MBID, ...imagesOf(artistImage) };
      expect((await api.shape('getArtistInfo', { id: `ar-${artistId}` }, ArtistInfo)).artistInfo).toEqual(expected);
      expect((await api.shape('getArtistInfo2', { id: `ar-${artistId}` }, ArtistInfo2)).artistInfo2).toEqual(expected);
      expect((await api.shape('getArtistInfo2', { id: artistId, count: 5 }, ArtistInfo2)).artistInfo2).toEqual(
        expected,
      );
    });

    it("getArtistInfo takes an album's or a song's id for its artist, as the folder model browses", async () => {
      const expected = { musicBrainzId: ARTIST_MBID, ...imagesOf(artistImage) };
      for (const id of [`al-${albumId}`, String(songId)]) {
        expect((await api.shape('getArtistInfo', { id, includeNotPresent: true }, ArtistInfo)).artistInfo).toEqual(
          expected,
        );
      }
    });

    it('answer nothing to tell for an artist without a picture or id, rather than made-up text', async () => {
      expect((await api.shape('getArtistInfo', { id: `ar-${bareArtistId}` }, ArtistInfo)).artistInfo).toEqual({});
      expect((await api.shape('getArtistInfo2', { id: `ar-${bareArtistId}` }, ArtistInfo2)).artistInfo2).toEqual({});
    });

    it('refuse what names no artist (70), no id (10), a malformed count or flag (0)', async () => {
      for (const id of ['ar-999999', 'al-999999', '999999', 'pl-1', 'nonsense', 'fo-1']) {
        await api.error('getArtistInfo', { id }, 70);
      }
      await api.error('getArtistInfo2', { id: `al-${albumId}` }, 70);
      await api.error('getArtistInfo', {}, 10);
      await api.error('getArtistInfo2', {}, 10);
      await api.error('getArtistInfo', { id: `ar-${artistId}`, count: 'all' }, 0);
      await api.error('getArtistInfo2', { id: `ar-${artistId}`, includeNotPresent: 'maybe' }, 0);
    });
  });

  describe('getAlbumInfo and getAlbumInfo2', () => {
    it("answer the album's MusicBrainz id and the picture it shows: its first track's without one of its own", async () => {
      const expected = { musicBrainzId: RELEASE_MBID, ...imagesOf(trackImage) };
      for (const method of ['getAlbumInfo', 'getAlbumInfo2']) {
        expect((await api.shape(method, { id: `al-${albumId}` }, AlbumInfo)).albumInfo).toEqual(expected);
        // A song's id names its album.
        expect((await api.shape(method, { id: songId }, AlbumInfo)).albumInfo).toEqual(expected);
      }
    });

    it('answer its own cover when it has one, and nothing for a placeholder album without one', async () => {
      const covered = await api.shape('getAlbumInfo2', { id: `al-${coveredAlbumId}` }, AlbumInfo);
      expect(covered.albumInfo).toEqual(imagesOf(artistImage));
      expect((await api.shape('getAlbumInfo', { id: `al-${placeholderId}` }, AlbumInfo)).albumInfo).toEqual({});
      expect((await api.shape('getAlbumInfo2', { id: looseSongId }, AlbumInfo)).albumInfo).toEqual({});
    });

    it('refuse what names no album (70) and no id (10)', async () => {
      for (const method of ['getAlbumInfo', 'getAlbumInfo2']) {
        for (const id of ['al-999999', '999999', `ar-${artistId}`, 'nonsense', 'fo-1'])
          await api.error(method, { id }, 70);
        await api.error(method, {}, 10);
      }
    });
  });
});
