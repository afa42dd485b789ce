import type { SearchResponse } from '@tonearm/contract';
import { toArtistJson } from '../artists/artists.presenter.js';
import { toPlaylistJson } from '../playlists/playlists.presenter.js';
import { toSongsJson } from '../songs/songs.presenter.js';
import type { SearchResult } from './search.service.js';

/** GET /api/search: each kind in its own module's JSON. */
export function toSearchJson(result: SearchResult): SearchResponse {
  return {
    songs: toSongsJson(result.songs),
    artists: result.artists.map(toArtistJson),
    playlists: result.playlists.map(toPlaylistJson),
    // Bridge until the search helper's ranked cursor pages land: every group is answered whole.
    nextCursors: { songs: null, artists: null, playlists: null },
  };
}
