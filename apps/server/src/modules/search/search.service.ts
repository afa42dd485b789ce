import { visiblePlaylists } from '@tonearm/contract';
import type { ArtistsRepository, ArtistWithSongs } from '../artists/artists.repository.js';
import type { PlaylistsRepository } from '../playlists/playlists.repository.js';
import type { PlaylistView } from '../playlists/playlists.service.js';
import type { SearchIndexRepository } from '../search-index/search-index.repository.js';
import { searchTerms } from '../search-index/search-terms.js';
import { noSongs, type SongListing, type SongsService, type Viewer } from '../songs/songs.service.js';

export const SEARCH_DEFAULT_LIMIT = 20;

/** What a search found, best match first in each kind (search.presenter). */
export interface SearchResult {
  songs: SongListing;
  artists: ArtistWithSongs[];
  playlists: PlaylistView[];
}

/**
 * Search over song names, artist names and genres, artists by name, and playlists by name (public ones and the
 * caller's own): ranked, every word matched as a prefix, case and accents ignored.
 */
export class SearchService {
  constructor(
    private readonly search: SearchIndexRepository,
    private readonly songs: Pick<SongsService, 'listByIds'>,
    private readonly artists: Pick<ArtistsRepository, 'listByIds'>,
    private readonly playlists: Pick<PlaylistsRepository, 'songIds'>,
  ) {}

  async query(viewer: Viewer, q: string, limit = SEARCH_DEFAULT_LIMIT): Promise<SearchResult> {
    const terms = searchTerms(q);
    if (terms.length === 0) return { songs: noSongs(), artists: [], playlists: [] };
    const [songIds, artistIds, playlistRows] = await Promise.all([
      this.search.songIds(terms, limit),
      this.search.artistIds(terms, limit),
      this.search.playlists(terms, limit, visiblePlaylists(viewer)),
    ]);
    const [songs, artistRows, playlistSongs] = await Promise.all([
      this.songs.listByIds(viewer, songIds),
      this.artists.listByIds(artistIds),
      this.playlists.songIds(playlistRows.map((row) => row.id)),
    ]);
    const artistsById = new Map(artistRows.map((artist) => [artist.id, artist]));
    return {
      songs,
      artists: artistIds.flatMap((id) => {
        const artist = artistsById.get(id);
        return artist === undefined ? [] : [artist];
      }),
      playlists: playlistRows.map((row) => ({ row, songIds: playlistSongs.get(row.id) ?? [] })),
    };
  }
}
