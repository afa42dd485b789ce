import type { App } from '../../http/app-types.js';
import { searchRoutes } from './search.routes.js';
import type { SearchService } from './search.service.js';

/**
 * One search box over songs, artists and playlists (`/api/search`). The upkeep of the search's typo vocabulary is a
 * job of the composition root (composition.ts), from start-up to shutdown.
 */
export function registerSearch(app: App, { search }: { search: SearchService }): void {
  searchRoutes(app, search);
}
