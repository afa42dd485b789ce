import { RequestMessages, visiblePlaylists, type SearchKind } from '@tonearm/contract';
import { badRequest } from '../../http/errors.js';
import type { AlbumListRow, AlbumsRepository } from '../albums/albums.repository.js';
import type { ArtistsRepository, ArtistWithSongs } from '../artists/artists.repository.js';
import type { PlaylistsRepository } from '../playlists/playlists.repository.js';
import type { PlaylistView } from '../playlists/playlists.service.js';
import type { SearchIndexRepository } from '../search-index/search-index.repository.js';
import { searchTerms } from '../search-index/search-terms.js';
import { noSongs, type SongListing, type SongsService, type Viewer } from '../songs/songs.service.js';

export const SEARCH_DEFAULT_LIMIT = 20;

/** GET /api/search's query: the words, the page size, and (to page one group) the group and its cursor. */
export interface SearchRequest {
  q: string;
  limit?: number;
  kind?: SearchKind;
  cursor?: string;
}

/** What a search found, best match first in each group, with each group's next cursor (search.presenter). */
export interface SearchResult {
  songs: SongListing;
  artists: ArtistWithSongs[];
  playlists: PlaylistView[];
  nextCursors: Record<SearchKind, string | null>;
  /** Albums by name (issue 12): the first `limit` only, and only without `kind`. */
  albums: AlbumListRow[];
}

const NO_CURSORS = { songs: null, artists: null, playlists: null };

/**
 * Search over song names, artist names and genres, artists by name, and playlists by name (public ones and the
 * caller's own). Each group is ranked exact words, then prefixes, then one typo (search-index). Without `kind` the
 * answer holds the first page of every group; with `kind` (and its `cursor`) one page of that group only.
 */
export class SearchService {
  constructor(
    private readonly search: SearchIndexRepository,
    private readonly songs: Pick<SongsService, 'listPresentByIds'>,
    private readonly artists: Pick<ArtistsRepository, 'listByIds'>,
    private readonly playlists: Pick<PlaylistsRepository, 'songIds'>,
    private readonly albums: Pick<AlbumsRepository, 'page'>,
  ) {}

  async query(viewer: Viewer, request: SearchRequest): Promise<SearchResult> {
    const { q, limit = SEARCH_DEFAULT_LIMIT, kind, cursor } = request;
    // A cursor belongs to one group: without the group it names nothing.
    if (cursor !== undefined && kind === undefined) throw badRequest(RequestMessages.badCursor, 'cursor');
    const terms = searchTerms(q);
    const empty: SearchResult = {
      songs: noSongs(),
      artists: [],
      playlists: [],
      nextCursors: NO_CURSORS,
      albums: [],
    };
    if (terms.length === 0) return empty;
    const wants = (group: SearchKind) => kind === undefined || kind === group;
    const [songs, artists, playlists, albums] = await Promise.all([
      wants('songs') ? this.songsPage(viewer, terms, cursor, limit) : null,
      wants('artists') ? this.artistsPage(viewer, terms, cursor, limit) : null,
      wants('playlists') ? this.playlistsPage(viewer, terms, cursor, limit) : null,
      // The words as typed (album names are matched by their words, like GET /api/albums?q=); no placeholder album
      // (issue 25): "unknown" would find one per artist.
      kind === undefined
        ? this.albums.page(
            { q: terms.join(' '), placeholders: false, hidden: viewer.hiddenLibraries },
            undefined,
            limit,
          )
        : [],
    ]);
    return {
      songs: songs?.items ?? empty.songs,
      artists: artists?.items ?? [],
      playlists: playlists?.items ?? [],
      nextCursors: {
        songs: songs?.nextCursor ?? null,
        artists: artists?.nextCursor ?? null,
        playlists: playlists?.nextCursor ?? null,
      },
      albums,
    };
  }

  private async songsPage(viewer: Viewer, terms: string[], cursor: string | undefined, limit: number) {
    const hidden = viewer.hiddenLibraries;
    const { ids, nextCursor } = await this.search.idPage('songs', terms, cursor, limit, { hidden });
    return { items: await this.songs.listPresentByIds(viewer, ids), nextCursor };
  }

  private async artistsPage(viewer: Viewer, terms: string[], cursor: string | undefined, limit: number) {
    const { ids, nextCursor } = await this.search.idPage('artists', terms, cursor, limit);
    const artists = await this.artists.listByIds(ids, viewer.hiddenLibraries);
    const byId = new Map(artists.map((artist) => [artist.id, artist]));
    return { items: ids.flatMap((id) => byId.get(id) ?? []), nextCursor };
  }

  private async playlistsPage(viewer: Viewer, terms: string[], cursor: string | undefined, limit: number) {
    const { rows, nextCursor } = await this.search.playlistPage(terms, cursor, limit, visiblePlaylists(viewer));
    const songIds = await this.playlists.songIds(rows.map((row) => row.id));
    return { items: rows.map((row) => ({ row, songIds: songIds.get(row.id) ?? [] })), nextCursor };
  }
}
