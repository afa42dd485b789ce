import { SubsonicMessages, THUMBNAIL_WIDTHS, imageUrl } from '@tonearm/contract';
import type { FastifyRequest } from 'fastify';
import type { ArtistRow } from '../../../db/schema.js';
import type { SessionViewer } from '../../../http/session.js';
import type { AlbumListRow } from '../../albums/albums.repository.js';
import type { SubsonicDeps } from '../subsonic-deps.js';
import { similarArtistRows } from './discovery.methods.js';
import { idOfKind, parseFolderId, parseSubsonicId } from '../subsonic-ids.js';
import {
  intParam,
  notFoundError,
  orNotFound,
  requiredParam,
  subsonicFail,
  type MethodTable,
  type SubsonicCall,
} from '../subsonic-method.js';
import type { SubsonicParams } from '../subsonic-params.js';
import type { SubsonicNode } from '../subsonic.response.js';

/** getArtistInfo(2)'s `count` of similar artists: 20 unless asked (one radio batch gives fewer than the most). */
const SIMILAR_DEFAULT = 20;
const SIMILAR_MAX = 500;

/** This server's origin as the app reached it (PUBLIC_URL when configured), for absolute URLs in answers. */
export function serverOrigin(request: FastifyRequest, publicUrl: string | null): string {
  return (publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
}

/** A picture's small, medium and large URLs: its stored thumbnails (64, 300 and 640 px wide); none without one. */
function imageUrls(base: string, key: string | null): SubsonicNode {
  if (key === null) return {};
  const [small, medium, large] = THUMBNAIL_WIDTHS.map((width) => `${base}${imageUrl(key, width)}`);
  return { smallImageUrl: small, mediumImageUrl: medium, largeImageUrl: large };
}

/** A boolean parameter (`true`/`false`), absent as `fallback`; anything else is error 0. */
function booleanParam(params: SubsonicParams, name: string, fallback: boolean): boolean {
  const raw = params.get(name);
  if (raw === undefined) return fallback;
  if (raw !== 'true' && raw !== 'false') throw subsonicFail('generic', SubsonicMessages.badBoolean(name));
  return raw === 'true';
}

/**
 * What Tonearm knows of an artist or an album beyond its songs: its pictures (as URLs of the stored thumbnails), its
 * MusicBrainz id when the tags gave one, and an artist's similar artists from issue 28's radio (only artists of this
 * server: `includeNotPresent` changes nothing). There is no biography, no album notes and no last.fm page to tell, so
 * those fields are left out rather than made up.
 */
export function infoMethods(deps: SubsonicDeps): MethodTable {
  const { browse, marks } = deps;

  /** The artist `id` names for the caller (70 when it names none they see). */
  async function artistOf(user: SessionViewer, id: number) {
    const artist = await browse.artist(id, { hidden: user.hiddenLibraries });
    if (artist === undefined) throw notFoundError('Artist');
    return artist;
  }

  /** An artist's info, with at most `count` similar artists as `shape` (getArtistInfo: `entry`; 2: `id3`). */
  async function artistInfo(call: SubsonicCall, artist: ArtistRow, shape: 'id3' | 'entry', count: number) {
    const user = call.caller.user;
    const base = serverOrigin(call.request, deps.config.publicUrl);
    const similar = await marks.artists(user, await similarArtistRows(deps, user, artist.id, count), shape);
    return {
      ...(artist.mb_artist_id === null ? {} : { musicBrainzId: artist.mb_artist_id }),
      ...imageUrls(base, artist.image_key),
      ...(similar.length === 0 ? {} : { similarArtist: similar }),
    };
  }

  /**
   * getArtistInfo's id, as the folder model's ids are: an artist (`ar-N`), an album's or a song's artist, or a
   * library folder (`fo-…`, which is no artist: nothing to tell). Null for a folder.
   */
  async function artistOfAnyId(user: SessionViewer, id: string): Promise<number | null> {
    const folder = parseFolderId(id);
    if (folder !== null) {
      await orNotFound('Directory', () => deps.folders.contents(user, folder.libraryId, folder.path));
      return null;
    }
    const parsed = parseSubsonicId(id);
    if (parsed?.kind === 'artist') return parsed.id;
    if (parsed?.kind === 'album') {
      const { album } = await orNotFound('Album', () => deps.albums.get(user, parsed.id));
      if (album.artist_id === null) throw notFoundError('Artist');
      return album.artist_id;
    }
    if (parsed?.kind === 'song') {
      const { row } = await orNotFound('Song', () => deps.songs.get(user, parsed.id));
      if (row.artist_id === null) throw notFoundError('Artist');
      return row.artist_id;
    }
    throw notFoundError('Artist');
  }

  /** The album an album's or a song's id names for the caller, and the picture it shows (as getCoverArt's). */
  async function albumOf(user: SessionViewer, id: string): Promise<{ album: AlbumListRow; imageKey: string | null }> {
    const parsed = parseSubsonicId(id);
    let albumId: number | null = parsed?.kind === 'album' ? parsed.id : null;
    if (parsed?.kind === 'song') {
      const { row } = await orNotFound('Song', () => deps.songs.get(user, parsed.id));
      albumId = row.album_id;
    }
    if (albumId === null) throw notFoundError('Album');
    const { album, listing } = await orNotFound('Album', () => deps.albums.get(user, albumId));
    // An album without a cover of its own shows its first track's picture, but a placeholder album does not.
    const own = album.image_key !== null || album.is_placeholder === 1;
    const imageKey = own ? album.image_key : (listing.rows.find((row) => row.image_key !== null)?.image_key ?? null);
    return { album, imageKey };
  }

  /** getAlbumInfo(2)'s answer for an album's or a song's id. */
  async function albumInfo(call: SubsonicCall, id: string): Promise<SubsonicNode> {
    const { album, imageKey } = await albumOf(call.caller.user, id);
    const base = serverOrigin(call.request, deps.config.publicUrl);
    return {
      albumInfo: {
        ...(album.mb_release_id === null ? {} : { musicBrainzId: album.mb_release_id }),
        ...imageUrls(base, imageKey),
      },
    };
  }

  return {
    getArtistInfo: {
      run: async (call) => {
        const id = requiredParam(call.params, 'id');
        const count = intParam(call.params, 'count', SIMILAR_DEFAULT, 0, SIMILAR_MAX);
        booleanParam(call.params, 'includeNotPresent', false);
        const artistId = await artistOfAnyId(call.caller.user, id);
        if (artistId === null) return { artistInfo: {} };
        const artist = await artistOf(call.caller.user, artistId);
        return { artistInfo: await artistInfo(call, artist, 'entry', count) };
      },
    },
    getArtistInfo2: {
      run: async (call) => {
        const id = idOfKind(requiredParam(call.params, 'id'), 'artist');
        const count = intParam(call.params, 'count', SIMILAR_DEFAULT, 0, SIMILAR_MAX);
        booleanParam(call.params, 'includeNotPresent', false);
        if (id === null) throw notFoundError('Artist');
        return { artistInfo2: await artistInfo(call, await artistOf(call.caller.user, id), 'id3', count) };
      },
    },
    getAlbumInfo: {
      run: async (call) => {
        const id = requiredParam(call.params, 'id');
        // A library folder is the folder model's album: it exists (or 70), and there is nothing to tell of it.
        const folder = parseFolderId(id);
        if (folder === null) return albumInfo(call, id);
        await orNotFound('Directory', () => deps.folders.contents(call.caller.user, folder.libraryId, folder.path));
        return { albumInfo: {} };
      },
    },
    getAlbumInfo2: { run: (call) => albumInfo(call, requiredParam(call.params, 'id')) },
  };
}
