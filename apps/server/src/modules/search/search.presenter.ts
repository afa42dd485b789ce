import type { SearchResponse } from '@tonearm/contract';
import { toAlbumSummaryJson } from '../albums/albums.presenter.js';
import { toArtistJson } from '../artists/artists.presenter.js';
import { toPlaylistJson } from '../playlists/playlists.presenter.js';
import { toSongsJson } from '../songs/songs.presenter.js';
import type { SearchResult } from './search.service.js';

/** GET /api/search: each group in its own module's JSON, and each group's next cursor. */
export function toSearchJson(result: SearchResult): SearchResponse {
  return {
    songs: toSongsJson(result.songs),
    artists: result.artists.map(toArtistJson),
    playlists: result.playlists.map(toPlaylistJson),
    nextCursors: result.nextCursors,
    albums: result.albums.map(toAlbumSummaryJson),
  };
}
