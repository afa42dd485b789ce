import { visiblePlaylists, type SearchResponse } from '@tonearm/contract';
import { toArtistJson } from '../artists/artist-json.js';
import type { ArtistsRepository } from '../artists/artists.repository.js';
import { toPlaylistJson } from '../playlists/playlist-json.js';
import type { PlaylistsRepository } from '../playlists/playlists.repository.js';
import type { SongsService, Viewer } from '../songs/songs.service.js';
import type { SearchRepository } from './search.repository.js';
import { searchTerms } from './search-terms.js';

export const SEARCH_DEFAULT_LIMIT = 20;

/**
 * Search over song names, artist names and genres, artists by name, and playlists by name (public ones and the
 * caller's own): ranked, every word matched as a prefix, case and accents ignored.
 */
export class SearchService {
  constructor(
    private readonly search: SearchRepository,
    private readonly songs: SongsService,
    private readonly artists: ArtistsRepository,
    private readonly playlists: Pick<PlaylistsRepository, 'songIds'>,
  ) {}

  async query(viewer: Viewer, q: string, limit = SEARCH_DEFAULT_LIMIT): Promise<SearchResponse> {
    const terms = searchTerms(q);
    if (terms.length === 0) return { songs: [], artists: [], playlists: [] };
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
        return artist === undefined ? [] : [toArtistJson(artist)];
      }),
      playlists: playlistRows.map((row) => toPlaylistJson(row, playlistSongs.get(row.id) ?? [])),
    };
  }
}
