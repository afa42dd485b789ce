import { randomInt } from 'node:crypto';
import {
  DbId,
  FIRST_SORT_DIRECTION,
  SHUFFLE_SEED_MAX,
  type CursorQuery,
  type SongPageQuery,
  type SortDirection,
} from '@tonearm/contract';
import { z } from 'zod';
import { badCursor, cursorCodec, keysetPage, pageLimit, type CursorScope } from '../../http/page-cursor.js';
import type { SearchIndexRepository } from '../search-index/search-index.repository.js';
import { searchTerms } from '../search-index/search-terms.js';
import type { CatalogueIndex } from './catalogue-index.js';
import type { CatalogueFilter, SongPagesRepository, SongSort, SongsOf } from './song-pages.repository.js';
import type { SongListRow } from './songs.repository.js';
import { type SongListing, type SongsService, type Viewer } from './songs.service.js';

/** One page of songs as one viewer sees them (songs.presenter's toSongPageJson). */
export interface SongPageResult {
  listing: SongListing;
  nextCursor: string | null;
  total: number;
  /** The shuffle's seed; null when the list is not shuffled. */
  seed: number | null;
}

const Seed = z.number().int().min(0).max(SHUFFLE_SEED_MAX);
const Timestamp = z.string().max(40);

/** [seed, last id]: the seed travels in the cursor, so a client may page on without repeating it. */
const shuffleCursors = cursorCodec('songs.shuffle', z.tuple([Seed, DbId]));
const newestCursors = cursorCodec('songs.newest', z.tuple([DbId]));
/** [sort key, last id]; the order and direction are in the cursor's scope. */
const sortedCursors = cursorCodec('songs.sorted', z.tuple([z.union([z.string().max(2_000), z.number()]), DbId]));
/** [last id] of `added`, in either direction. */
const addedCursors = cursorCodec('songs.added', z.tuple([DbId]));
/** [liked at, song id]. */
const likedCursors = cursorCodec('songs.liked', z.tuple([Timestamp, DbId]));
/** [position, added at, song id]. */
const playlistCursors = cursorCodec('songs.playlist', z.tuple([z.number().int().min(0), Timestamp, DbId]));

/**
 * The keyset song pages (issue 11): the catalogue (shuffled by seed, newest first, or search hits, optionally one
 * artist's or one genre's), a viewer's liked songs and a playlist's songs. Each page reads only its own rows, and the
 * viewer's likes and playlists for those rows only.
 */
export class SongPagesService {
  constructor(
    private readonly pages: SongPagesRepository,
    private readonly search: SearchIndexRepository,
    private readonly catalogue: CatalogueIndex,
    private readonly songs: SongsService,
  ) {}

  /** GET /api/songs/page. */
  page(viewer: Viewer, query: SongPageQuery): Promise<SongPageResult> {
    // An empty genre (a form's "any genre") filters nothing, as an empty q searches nothing.
    const filter: CatalogueFilter = {
      artistId: query.artistId,
      genre: query.genre === '' ? undefined : query.genre,
      hidden: viewer.hiddenLibraries.length === 0 ? undefined : viewer.hiddenLibraries,
    };
    if (query.q !== undefined && query.q !== '') return this.searchPage(viewer, query.q, filter, query);
    switch (query.order) {
      case 'newest':
        return this.newestPage(viewer, filter, query);
      case 'added':
        return (query.direction ?? FIRST_SORT_DIRECTION.added) === 'desc'
          ? this.newestPage(viewer, filter, query)
          : this.oldestPage(viewer, filter, query);
      case 'title':
      case 'artist':
      case 'album':
      case 'genre':
      case 'duration':
      case 'plays': {
        const direction = query.direction ?? FIRST_SORT_DIRECTION[query.order];
        return this.sortedPage(viewer, filter, { column: query.order, direction }, query);
      }
      case 'rating':
        return this.ratedPage(viewer, filter, query.direction ?? FIRST_SORT_DIRECTION.rating, query);
      case 'shuffle':
      case undefined:
        return this.shufflePage(viewer, filter, query);
    }
  }

  /** GET /api/songs/liked/page: most recently liked first. */
  async liked(viewer: Viewer, query: CursorQuery): Promise<SongPageResult> {
    const limit = pageLimit(query.limit);
    const scope = [viewer.id];
    const after = likedCursors.decode(scope, query.cursor);
    const [rows, total] = await Promise.all([
      this.pages.liked(songsOf(viewer), after && { likedAt: after[0], songId: after[1] }, limit + 1),
      this.pages.countLiked(songsOf(viewer)),
    ]);
    const page = keysetPage(rows, limit, (row) => likedCursors.encode(scope, [row.liked_at, row.id]));
    return this.result(viewer, page.rows, page.nextCursor, total);
  }

  /** GET /api/playlists/:id/songs: playlist order, to those who may see the playlist (404 to anyone else). */
  async inPlaylist(viewer: Viewer, playlistId: number, query: CursorQuery): Promise<SongPageResult> {
    await this.songs.assertSeesPlaylist(viewer, playlistId);
    const limit = pageLimit(query.limit);
    const scope = [playlistId];
    const after = playlistCursors.decode(scope, query.cursor);
    const named = after && { position: after[0], addedAt: after[1], songId: after[2] };
    // Songs removed before the cursor shift the rest up: continue from where its song is now, if it is still there.
    const key = named && ((await this.pages.playlistKey(playlistId, named.songId)) ?? named);
    const [rows, total] = await Promise.all([
      this.pages.inPlaylist(playlistId, viewer.hiddenLibraries, key, limit + 1),
      this.pages.countInPlaylist(playlistId, viewer.hiddenLibraries),
    ]);
    const page = keysetPage(rows, limit, (row) => playlistCursors.encode(scope, [row.position, row.added_at, row.id]));
    return this.result(viewer, page.rows, page.nextCursor, total);
  }

  private async shufflePage(viewer: Viewer, filter: CatalogueFilter, query: SongPageQuery): Promise<SongPageResult> {
    const scope = filterScope(filter);
    const after = shuffleCursors.decode(scope, query.cursor);
    if (after !== undefined && query.seed !== undefined && query.seed !== after[0]) throw badCursor();
    const seed = after?.[0] ?? query.seed ?? randomInt(SHUFFLE_SEED_MAX + 1);
    const limit = pageLimit(query.limit);
    const snapshot = await this.catalogue.snapshot();
    const page = snapshot.shuffledPage(seed, after?.[1], limit, filter);
    const last = page.ids.at(-1);
    const nextCursor = page.more && last !== undefined ? shuffleCursors.encode(scope, [seed, last]) : null;
    return { ...(await this.byIds(viewer, page.ids, nextCursor, page.total)), seed };
  }

  private async newestPage(viewer: Viewer, filter: CatalogueFilter, query: SongPageQuery): Promise<SongPageResult> {
    // `added` descending is newest first, with its own cursors (so a cursor never crosses from one order to another).
    const codec = query.order === 'added' ? addedCursors : newestCursors;
    const scope = query.order === 'added' ? [...filterScope(filter), 'desc'] : filterScope(filter);
    const after = codec.decode(scope, query.cursor);
    const limit = pageLimit(query.limit);
    const [rows, snapshot] = await Promise.all([
      this.pages.newest(filter, after?.[0], limit + 1),
      this.catalogue.snapshot(),
    ]);
    const page = keysetPage(rows, limit, (row) => codec.encode(scope, [row.id]));
    return this.result(viewer, page.rows, page.nextCursor, snapshot.count(filter));
  }

  /** `added` ascending: the first added first (id ascending). */
  private async oldestPage(viewer: Viewer, filter: CatalogueFilter, query: SongPageQuery): Promise<SongPageResult> {
    const scope = [...filterScope(filter), 'asc'];
    const after = addedCursors.decode(scope, query.cursor);
    const limit = pageLimit(query.limit);
    const [rows, snapshot] = await Promise.all([
      this.pages.oldest(filter, after?.[0], limit + 1),
      this.catalogue.snapshot(),
    ]);
    const page = keysetPage(rows, limit, (row) => addedCursors.encode(scope, [row.id]));
    return this.result(viewer, page.rows, page.nextCursor, snapshot.count(filter));
  }

  /** Sorted by a column, ties by id: the key and id of the last song travel in the cursor. */
  private async sortedPage(
    viewer: Viewer,
    filter: CatalogueFilter,
    sort: SongSort,
    query: SongPageQuery,
  ): Promise<SongPageResult> {
    const scope = [...filterScope(filter), sort.column, sort.direction];
    const after = sortedCursors.decode(scope, query.cursor);
    const limit = pageLimit(query.limit);
    const [rows, snapshot] = await Promise.all([
      this.pages.sorted(filter, sort, after && { key: after[0], songId: after[1] }, limit + 1),
      this.catalogue.snapshot(),
    ]);
    const page = keysetPage(rows, limit, (row) => sortedCursors.encode(scope, [row.sort_key, row.id]));
    return this.result(viewer, page.rows, page.nextCursor, snapshot.count(filter));
  }

  /** Issue 28: by the viewer's own stars, ties by id; the cursor is the viewer's (their ratings are in its scope). */
  private async ratedPage(
    viewer: Viewer,
    filter: CatalogueFilter,
    direction: SortDirection,
    query: SongPageQuery,
  ): Promise<SongPageResult> {
    const scope = [...filterScope(filter), 'rating', direction, viewer.id];
    const after = sortedCursors.decode(scope, query.cursor);
    const limit = pageLimit(query.limit);
    const [rows, snapshot] = await Promise.all([
      this.pages.rated(filter, viewer.id, direction, after && { key: after[0], songId: after[1] }, limit + 1),
      this.catalogue.snapshot(),
    ]);
    const page = keysetPage(rows, limit, (row) => sortedCursors.encode(scope, [row.sort_key, row.id]));
    return this.result(viewer, page.rows, page.nextCursor, snapshot.count(filter));
  }

  /**
   * Search hits, best first (exact words, then prefixes, then one typo): the search index's ranked keyset page, whose
   * cursor is the same as the songs group's of GET /api/search, so a search's "more" and the player page on alike.
   * `total` is exact up to SEARCH_TOTAL_MAX.
   */
  private async searchPage(
    viewer: Viewer,
    q: string,
    filter: CatalogueFilter,
    query: SongPageQuery,
  ): Promise<SongPageResult> {
    const { ids, nextCursor, total } = await this.search.songPage(
      searchTerms(q),
      query.cursor,
      pageLimit(query.limit),
      filter,
    );
    return this.byIds(viewer, ids, nextCursor, total);
  }

  /** These songs in this order (a song deleted meanwhile is left out), with the viewer's marks. */
  private async byIds(
    viewer: Viewer,
    ids: readonly number[],
    nextCursor: string | null,
    total: number,
  ): Promise<SongPageResult> {
    return { listing: await this.songs.listByIds(viewer, ids), nextCursor, total, seed: null };
  }

  private async result(
    viewer: Viewer,
    rows: SongListRow[],
    nextCursor: string | null,
    total: number,
  ): Promise<SongPageResult> {
    return { listing: await this.songs.withMarks(viewer, rows), nextCursor, total, seed: null };
  }
}

function filterScope({ artistId, genre, hidden }: CatalogueFilter): CursorScope {
  return hidden === undefined ? [artistId, genre] : [artistId, genre, hidden.join(',')];
}

const songsOf = (viewer: Viewer): SongsOf => ({ userId: viewer.id, hidden: viewer.hiddenLibraries });
