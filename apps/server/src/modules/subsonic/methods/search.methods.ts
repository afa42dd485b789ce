import { SubsonicMessages } from '@tonearm/contract';
import type { SessionViewer } from '../../../http/session.js';
import { searchTerms } from '../../search-index/search-terms.js';
import type { SubsonicDeps } from '../subsonic-deps.js';
import { idOfKind, parseSubsonicId } from '../subsonic-ids.js';
import { intParam, notFoundError, subsonicFail, type MethodTable, type SubsonicCall } from '../subsonic-method.js';
import type { SubsonicParams } from '../subsonic-params.js';
import type { SubsonicNode } from '../subsonic.response.js';
import type { StarKind } from '../subsonic-stars.repository.js';
import { inOrder } from '../subsonic-star-marks.js';
import { folderScope } from '../music-folders.js';
import type { SongScope } from '../../../db/library-visibility.js';

/** search2/search3: each part's `xxxCount` defaults to 20 and is capped at this. */
export const SEARCH_COUNT_DEFAULT = 20;
export const SEARCH_COUNT_MAX = 500;
/**
 * A query's matches are ranked (search-index), so an offset reads the ranking up to offset + count: past this many,
 * a part answers nothing. The empty query lists the catalogue by id and takes any offset.
 */
export const SEARCH_RANKED_MAX = 5_000;
/** getStarred/getStarred2 answer up to this many of each kind, most recently starred first. */
export const STARRED_MAX = 1_000;

type Part = 'artist' | 'album' | 'song';

interface Window {
  count: number;
  offset: number;
}

function windows(params: SubsonicParams): Record<Part, Window> {
  const window = (part: Part): Window => ({
    count: intParam(params, `${part}Count`, SEARCH_COUNT_DEFAULT, 0, SEARCH_COUNT_MAX),
    offset: intParam(params, `${part}Offset`, 0, 0, Number.MAX_SAFE_INTEGER),
  });
  return { artist: window('artist'), album: window('album'), song: window('song') };
}

/** The query as typed; `""` (two double quotes, which some apps send for "everything") counts as empty. */
function queryOf(params: SubsonicParams): string {
  const query = (params.get('query') ?? '').trim();
  return /^(""|'')$/.test(query) ? '' : query;
}

/** Every song, album and artist id a star or unstar call names, by kind; 70 for an id that names nothing. */
function starTargets(params: SubsonicParams): Record<'song' | StarKind, number[]> {
  const targets = { song: [] as number[], album: [] as number[], artist: [] as number[] };
  for (const raw of params.getAll('id')) {
    // `id` names a song; older apps star albums and artists through it too, with their prefixed ids.
    const parsed = parseSubsonicId(raw);
    if (parsed === null || parsed.kind === 'playlist') throw notFoundError('Song');
    targets[parsed.kind].push(parsed.id);
  }
  for (const [name, kind, what] of [
    ['albumId', 'album', 'Album'],
    ['artistId', 'artist', 'Artist'],
  ] as const) {
    for (const raw of params.getAll(name)) {
      const id = idOfKind(raw, kind);
      if (id === null) throw notFoundError(what);
      targets[kind].push(id);
    }
  }
  if (targets.song.length + targets.album.length + targets.artist.length === 0) {
    throw subsonicFail('missingParameter', SubsonicMessages.starNothing);
  }
  return { song: [...new Set(targets.song)], album: [...new Set(targets.album)], artist: [...new Set(targets.artist)] };
}

const WHAT = { song: 'Song', album: 'Album', artist: 'Artist' } as const;

/** Searching (search2, search3) and stars (star, unstar, getStarred, getStarred2). */
export function searchMethods(deps: SubsonicDeps): MethodTable {
  const { catalogue, stars, marks, albumRows: albums } = deps;

  /**
   * One page of each part: the whole catalogue by id for an empty query, else Tonearm's search ranking; only what the
   * scope holds (the caller's libraries, `musicFolderId`'s folder).
   */
  async function find(user: SessionViewer, params: SubsonicParams, scope: SongScope) {
    const parts = windows(params);
    const query = queryOf(params);
    const { artist, album, song } = parts;
    if (query === '') {
      const [artists, albumRows, songRows] = await Promise.all([
        artist.count === 0 ? [] : catalogue.artistPage(artist.count, artist.offset, scope),
        album.count === 0 ? [] : catalogue.albumPage(album.count, album.offset, scope),
        song.count === 0 ? [] : catalogue.songPage(song.count, song.offset, scope),
      ]);
      return { artists, albums: albumRows, songs: await deps.songs.withMarks(user, songRows) };
    }
    const terms = searchTerms(query);
    // The ranking up to offset + count, then the page; a part asked for nothing, or past the ranking's end, reads none.
    const reach = ({ count, offset }: Window) =>
      terms.length === 0 || count === 0 || offset >= SEARCH_RANKED_MAX
        ? 0
        : Math.min(offset + count, SEARCH_RANKED_MAX);
    const { hidden, library } = scope;
    const [artistIds, albumRows, songIds] = await Promise.all([
      reach(artist) === 0 ? [] : deps.searchIndex.idPage('artists', terms, undefined, reach(artist)),
      // Albums match by name as in /api/search (every word in the name), in name order.
      reach(album) === 0
        ? []
        : albums.page({ q: terms.join(' '), placeholders: false, hidden, library }, undefined, reach(album)),
      reach(song) === 0
        ? []
        : deps.searchIndex.idPage('songs', terms, undefined, reach(song), {
            hidden,
            ...(library === undefined ? {} : { library }),
          }),
    ]);
    const pageOf = <T>(items: readonly T[], { offset, count }: Window) => items.slice(offset, offset + count);
    // The ranked artists in the scope (the ranking knows no libraries), then their page.
    const rankedArtists = 'ids' in artistIds ? artistIds.ids : [];
    const artistsInScope = await catalogue.inScope('artist', rankedArtists, scope);
    const artistPage = pageOf(
      rankedArtists.filter((id) => artistsInScope.has(id)),
      artist,
    );
    const [artists, songs] = await Promise.all([
      catalogue.artistsByIds(artistPage),
      deps.songs.listPresentByIds(user, pageOf('ids' in songIds ? songIds.ids : [], song)),
    ]);
    return { artists: inOrder(artistPage, artists), albums: pageOf(albumRows, album), songs };
  }

  async function search(call: SubsonicCall, id3: boolean): Promise<SubsonicNode> {
    const { user } = call.caller;
    // `query` is required; empty (`query=`) is the whole catalogue, as OpenSubsonic wants for apps that sync.
    if (!call.params.given('query')) {
      throw subsonicFail('missingParameter', SubsonicMessages.missingParameter('query'));
    }
    const found = await find(user, call.params, await folderScope(deps.browse, call.params, user));
    const [artist, album, song] = await Promise.all([
      marks.artists(user, found.artists, id3 ? 'id3' : 'entry'),
      marks.albums(user, found.albums, id3 ? 'id3' : 'child'),
      marks.songs(user, found.songs),
    ]);
    return id3 ? { searchResult3: { artist, album, song } } : { searchResult2: { artist, album, song } };
  }

  async function starOrUnstar(call: SubsonicCall, starring: boolean): Promise<SubsonicNode> {
    const { user } = call.caller;
    const targets = starTargets(call.params);
    // Every item must exist (and not be only in libraries hidden from the caller) before anything changes: a missing
    // one is 70 and stars nothing.
    for (const kind of ['song', 'album', 'artist'] as const) {
      const found = await catalogue.existing(kind, targets[kind], user.hiddenLibraries);
      if (targets[kind].some((id) => !found.has(id))) throw notFoundError(WHAT[kind]);
    }
    const at = new Date().toISOString();
    for (const id of targets.song) {
      if (starring) await deps.likes.like(user, id);
      else await deps.likes.unlike(user, id);
    }
    for (const kind of ['album', 'artist'] as const) {
      if (!starring) await stars.unstar(kind, user.id, targets[kind]);
      else if (!(await stars.star(kind, user.id, targets[kind], at))) throw notFoundError(WHAT[kind]);
    }
    return {};
  }

  async function starred(call: SubsonicCall, id3: boolean): Promise<SubsonicNode> {
    const { user } = call.caller;
    // Only the starred items in the scope: the caller's libraries, and `musicFolderId`'s folder when given.
    const scope = await folderScope(deps.browse, call.params, user);
    const [artistStars, albumStars, likedIds] = await Promise.all([
      stars.starred('artist', user.id, STARRED_MAX, 0, scope),
      stars.starred('album', user.id, STARRED_MAX, 0, scope),
      stars.likedSongIds(user.id, STARRED_MAX, scope),
    ]);
    const liked = await deps.songs.listByIds(user, likedIds);
    const artistIds = artistStars.map((star) => star.id);
    const albumIds = albumStars.map((star) => star.id);
    const [artistRows, albumRows] = await Promise.all([
      catalogue.artistsByIds(artistIds),
      albums.byIds(albumIds, user.hiddenLibraries),
    ]);
    const dates = (list: { id: number; at: string }[]) => new Map(list.map((star) => [star.id, star.at]));
    const [artist, album, song] = await Promise.all([
      marks.artists(user, inOrder(artistIds, artistRows), id3 ? 'id3' : 'entry', dates(artistStars)),
      marks.albums(user, inOrder(albumIds, albumRows), id3 ? 'id3' : 'child', dates(albumStars)),
      marks.songs(user, liked),
    ]);
    return id3 ? { starred2: { artist, album, song } } : { starred: { artist, album, song } };
  }

  return {
    search2: { run: (call) => search(call, false) },
    search3: { run: (call) => search(call, true) },
    star: { run: (call) => starOrUnstar(call, true) },
    unstar: { run: (call) => starOrUnstar(call, false) },
    getStarred: { run: (call) => starred(call, false) },
    getStarred2: { run: (call) => starred(call, true) },
  };
}
