import { SubsonicMessages, imageUrl } from '@tonearm/contract';
import type { SongScope } from '../../../db/library-visibility.js';
import type { AlbumListRow } from '../../albums/albums.repository.js';
import { MUSIC_FOLDER_ID, idOfKind, parseFolderId, parseSubsonicId, subsonicId } from '../subsonic-ids.js';
import { artistEntry, artistID3 } from '../subsonic.mappers.js';
import type { SubsonicStarsRepository } from '../subsonic-stars.repository.js';
import {
  intParam,
  notFoundError,
  requiredParam,
  subsonicFail,
  type MethodTable,
  type SubsonicCall,
} from '../subsonic-method.js';
import type { SubsonicNode } from '../subsonic.response.js';
import type { SubsonicParams } from '../subsonic-params.js';
import type { SubsonicDeps } from '../subsonic-deps.js';
import type { SubsonicBrowseRepository } from '../subsonic-browse.repository.js';
import { IGNORED_ARTICLES, byLetter } from './artist-index.js';
import { folderScope, musicFoldersOf } from '../music-folders.js';
import { folderBrowsing } from './folder-browsing.js';
import { serverOrigin } from './info.methods.js';

/** `size` and `count` of the lists: 10 unless asked, 500 at most (Subsonic's limits). */
const LIST_DEFAULT = 10;
const LIST_MAX = 500;
/** Offsets beyond this answer nothing anyway (no catalogue is that large); the bound keeps them valid SQL numbers. */
const OFFSET_MAX = 1_000_000_000;
const YEAR_BOUND = 1_000_000;
/** The width of an artist's picture in getIndexes (`artistImageUrl`): the medium thumbnail. */
const INDEX_IMAGE_WIDTH = 300;
/** The starred dates the artist index marks, at most (a user stars a few artists, not tens of thousands). */
const STARRED_ARTISTS_MAX = 100_000;

const listSize = (params: SubsonicParams, name: string) => intParam(params, name, LIST_DEFAULT, 0, LIST_MAX);
const listOffset = (params: SubsonicParams) => intParam(params, 'offset', 0, 0, OFFSET_MAX);
const optionalYear = (params: SubsonicParams, name: string) =>
  params.has(name) ? intParam(params, name, 0, -YEAR_BOUND, YEAR_BOUND) : undefined;

/** What one album list type is given, and answers: the page's album ids, in list order. */
interface AlbumListRequest {
  userId: number;
  /** What the caller sees, narrowed to `musicFolderId`'s folder when given. */
  scope: SongScope;
  params: SubsonicParams;
  size: number;
  offset: number;
}
type AlbumListType = (request: AlbumListRequest) => Promise<number[]>;

/**
 * getAlbumList(2)'s types. `highest`: the albums the caller rated (issue 28), most stars first (unrated albums are not
 * in that list). `frequent` and `recent` are the
 * caller's own plays too, as ratings and play counts are per user in Subsonic servers. The placeholder albums (an
 * artist's songs without an album, issue 25) are in the lists that page through the whole catalogue (by name, by
 * artist, by year, by genre, starred) and left out of those that pick (random, newest, highest, frequent, recent).
 */
function albumListTypes(
  browse: SubsonicBrowseRepository,
  stars: SubsonicStarsRepository,
): Readonly<Record<string, AlbumListType>> {
  return {
    random: ({ size, scope }) => browse.randomAlbumIds(size, scope),
    newest: ({ size, offset, scope }) => browse.newestAlbumIds(size, offset, scope),
    highest: ({ userId, size, offset, scope }) => browse.ratedAlbumIds(userId, size, offset, scope),
    frequent: ({ userId, size, offset, scope }) => browse.playedAlbumIds(userId, 'frequent', size, offset, scope),
    recent: ({ userId, size, offset, scope }) => browse.playedAlbumIds(userId, 'recent', size, offset, scope),
    alphabeticalByName: ({ size, offset, scope }) => browse.albumIdsByName(size, offset, scope),
    alphabeticalByArtist: ({ size, offset, scope }) => browse.albumIdsByArtist(size, offset, scope),
    starred: ({ userId, size, offset, scope }) => stars.starredAlbumIds(userId, size, offset, scope),
    byYear: ({ params, size, offset, scope }) =>
      browse.albumIdsByYear(requiredYear(params, 'fromYear'), requiredYear(params, 'toYear'), size, offset, scope),
    byGenre: ({ params, size, offset, scope }) =>
      browse.albumIdsByGenre(requiredParam(params, 'genre'), size, offset, scope),
  };
}

/** A year the list cannot do without (error 10 when it is missing, 0 when it is no whole number). */
function requiredYear(params: SubsonicParams, name: string): number {
  requiredParam(params, name);
  return intParam(params, name, 0, -YEAR_BOUND, YEAR_BOUND);
}

/** Browsing by folders and by tags (ID3), and the album and song lists: what an app shows before anyone searches. */
export function browsingMethods(deps: SubsonicDeps): MethodTable {
  const { browse, stars, marks } = deps;
  const types = albumListTypes(browse, stars);
  const folders = folderBrowsing(deps);

  /**
   * What getIndexes browses: the real folders of the libraries the caller sees (all of them, or the one
   * `musicFolderId` names), or the artists (null) while the caller sees no library, and for `musicFolderId=0` (the
   * songs held in the blob store). Any other folder id is error 70.
   */
  async function indexedLibraries(call: SubsonicCall): Promise<number[] | null> {
    const seen = (await deps.folders.libraries(call.caller.user)).map((library) => library.id);
    if (!call.params.has('musicFolderId')) return seen.length === 0 ? null : seen;
    const asked = intParam(call.params, 'musicFolderId', MUSIC_FOLDER_ID, -1, OFFSET_MAX);
    if (seen.includes(asked)) return [asked];
    // 0: the blob store's songs; without any library, the one folder of old (MUSIC_FOLDER_ID) is every song.
    if (asked === 0 || (asked === MUSIC_FOLDER_ID && seen.length === 0)) return null;
    throw notFoundError(SubsonicMessages.musicFolder);
  }

  /** The page of albums a getAlbumList(2) call asks for. */
  async function albumList({ params, caller }: SubsonicCall): Promise<AlbumListRow[]> {
    const type = requiredParam(params, 'type');
    const list = Object.hasOwn(types, type) ? types[type] : undefined;
    if (list === undefined) throw subsonicFail('generic', SubsonicMessages.unknownListType(type));
    const scope = await folderScope(browse, params, caller.user);
    const ids = await list({
      userId: caller.user.id,
      scope,
      params,
      size: listSize(params, 'size'),
      offset: listOffset(params),
    });
    // Counted as the caller sees them: songs of libraries hidden from them left out.
    return deps.albumRows.byIds(ids, caller.user.hiddenLibraries);
  }

  /**
   * The artists by letter (those in the scope) and, when the caller starred one, the date: for getArtists as
   * ArtistID3 with its album count (of the albums in the scope), for getIndexes as the folder model's Artist, whose
   * picture is a URL (`imageBase`: this server's origin).
   */
  async function artistIndex(
    userId: number,
    scope: SongScope | undefined,
    imageBase: string | null,
  ): Promise<SubsonicNode[]> {
    const artists = await browse.artistsWithAlbumCounts(scope);
    // The caller's starred and rated artists (few), rather than a lookup of every artist's id.
    const [starredList, ratings] = await Promise.all([
      stars.starred('artist', userId, STARRED_ARTISTS_MAX, 0),
      marks.artistRatings({ id: userId }),
    ]);
    const starred = new Map(starredList.map((star) => [star.id, star.at] as const));
    return byLetter(artists).map((group) => ({
      name: group.name,
      artist: group.items.map((artist) => {
        const extras = { starred: starred.get(artist.id), userRating: ratings.get(artist.id) };
        if (imageBase === null) return artistID3(artist, artist.album_count, extras);
        const image =
          artist.image_key === null ? undefined : `${imageBase}${imageUrl(artist.image_key, INDEX_IMAGE_WIDTH)}`;
        return { ...artistEntry(artist, extras), artistImageUrl: image };
      }),
    }));
  }

  return {
    getMusicFolders: {
      run: async ({ caller }) => ({
        musicFolders: {
          musicFolder: (await musicFoldersOf(browse, caller.user.hiddenLibraries)).map(({ id, name }) => ({
            id,
            name,
          })),
        },
      }),
    },

    getIndexes: {
      run: async (call) => {
        const { params, caller } = call;
        const since = params.has('ifModifiedSince') ? intParam(params, 'ifModifiedSince', 0, 0, 2 ** 52) : undefined;
        const libraries = await indexedLibraries(call);
        const lastModified = await browse.lastAdded();
        // Unchanged since the app last asked: the answer says so by listing nothing (as Subsonic servers do).
        const unchanged = since !== undefined && lastModified <= since;
        const indexes = { ignoredArticles: IGNORED_ARTICLES, lastModified };
        if (unchanged) return { indexes: { ...indexes, index: [] } };
        if (libraries === null) {
          // The artists: of the blob store's songs for folder 0, else of every song the caller sees.
          const hidden = caller.user.hiddenLibraries;
          const scope: SongScope = params.get('musicFolderId') === '0' ? { hidden, library: null } : { hidden };
          const base = serverOrigin(call.request, deps.config.publicUrl);
          return { indexes: { ...indexes, index: await artistIndex(caller.user.id, scope, base) } };
        }
        return { indexes: { ...indexes, ...(await folders.index(caller.user, libraries)) } };
      },
    },

    getArtists: {
      run: async ({ params, caller }) => {
        const scope = await folderScope(browse, params, caller.user);
        const index = await artistIndex(caller.user.id, scope, null);
        return { artists: { ignoredArticles: IGNORED_ARTICLES, index } };
      },
    },

    getArtist: {
      run: async ({ params, caller }) => {
        const id = idOfKind(requiredParam(params, 'id'), 'artist');
        // An artist only in libraries hidden from the caller does not exist for them (70), nor do such albums.
        const seen = { hidden: caller.user.hiddenLibraries };
        const artist = id === null ? undefined : await browse.artist(id, seen);
        if (artist === undefined) throw notFoundError('Artist');
        const albums = await browse.albumsOfArtist(artist.id, seen);
        const [entry] = await marks.artists(caller.user, [artist], 'id3');
        return { artist: { ...entry, album: await marks.albums(caller.user, albums, 'id3') } };
      },
    },

    getAlbum: {
      run: async ({ params, caller }) => {
        const id = idOfKind(requiredParam(params, 'id'), 'album');
        if (id === null) throw notFoundError('Album');
        const { album, listing } = await deps.albums.get(caller.user, id);
        const [entry] = await marks.albums(caller.user, [album], 'id3');
        return { album: { ...entry, song: await marks.songs(caller.user, listing) } };
      },
    },

    getSong: {
      run: async ({ params, caller }) => {
        const id = idOfKind(requiredParam(params, 'id'), 'song');
        if (id === null) throw notFoundError('Song');
        const { row, marks: viewerMarks } = await deps.songs.get(caller.user, id);
        const [song] = await marks.songs(caller.user, { rows: [row], marks: viewerMarks });
        return { song };
      },
    },

    getMusicDirectory: {
      run: async ({ params, caller }) => {
        const id = requiredParam(params, 'id');
        const folder = parseFolderId(id);
        if (folder !== null) return folders.directory(caller.user, folder.libraryId, folder.path);
        const parsed = parseSubsonicId(id);
        if (parsed?.kind === 'artist') {
          // An artist only in libraries hidden from the caller does not exist for them, nor do such albums.
          const seen = { hidden: caller.user.hiddenLibraries };
          const artist = await browse.artist(parsed.id, seen);
          if (artist === undefined) throw notFoundError('Directory');
          // Every song is on an album (issue 25): its songs without one of their own are in its placeholder album.
          const albums = await browse.albumsOfArtist(parsed.id, seen);
          return {
            directory: {
              id: subsonicId('artist', artist.id),
              name: artist.name,
              child: await marks.albums(caller.user, albums, 'child'),
            },
          };
        }
        if (parsed?.kind === 'album') {
          const { album, listing } = await deps.albums.get(caller.user, parsed.id);
          return {
            directory: {
              id: subsonicId('album', album.id),
              parent: album.artist_id !== null ? subsonicId('artist', album.artist_id) : undefined,
              name: album.name,
              child: await marks.songs(caller.user, listing),
            },
          };
        }
        throw notFoundError('Directory');
      },
    },

    getGenres: {
      run: async ({ params, caller }) => {
        const genres = await browse.genres(await folderScope(browse, params, caller.user));
        return {
          genres: {
            genre: genres.map((genre) => ({
              songCount: genre.song_count,
              albumCount: genre.album_count,
              value: genre.genre,
            })),
          },
        };
      },
    },

    getAlbumList: {
      run: async (call) => ({
        albumList: { album: await marks.albums(call.caller.user, await albumList(call), 'child') },
      }),
    },

    getAlbumList2: {
      run: async (call) => ({
        albumList2: { album: await marks.albums(call.caller.user, await albumList(call), 'id3') },
      }),
    },

    getRandomSongs: {
      run: async ({ params, caller }) => {
        const scope = await folderScope(browse, params, caller.user);
        const size = listSize(params, 'size');
        const filter = {
          genre: params.get('genre'),
          fromYear: optionalYear(params, 'fromYear'),
          toYear: optionalYear(params, 'toYear'),
        };
        const listing = await deps.songs.listByIds(caller.user, await browse.randomSongIds(filter, size, scope));
        return { randomSongs: { song: await marks.songs(caller.user, listing) } };
      },
    },

    getSongsByGenre: {
      run: async ({ params, caller }) => {
        const genre = requiredParam(params, 'genre');
        const scope = await folderScope(browse, params, caller.user);
        const ids = await browse.songIdsByGenre(genre, listSize(params, 'count'), listOffset(params), scope);
        const listing = await deps.songs.listByIds(caller.user, ids);
        return { songsByGenre: { song: await marks.songs(caller.user, listing) } };
      },
    },
  };
}
