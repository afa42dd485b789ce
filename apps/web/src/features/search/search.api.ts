import type { SearchResponse } from '@tonearm/contract';
import { getJson, withQuery } from '../../lib/api-client.js';

export const SEARCH_LIMIT = 20;

/** GET /api/search: songs, artists and playlists matching `q`. */
export function searchCatalogue(q: string, signal?: AbortSignal): Promise<SearchResponse> {
  return getJson<SearchResponse>(withQuery('/api/search', { q, limit: SEARCH_LIMIT }), signal);
}
