import { endpoints } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { requireViewer } from '../../http/session.js';
import { toSearchJson } from './search.presenter.js';
import type { SearchService } from './search.service.js';

/** Songs, artists and playlists matching `q`, a page of each (or of `kind`): any signed-in user (401 otherwise). */
export function searchRoutes(app: App, search: SearchService): void {
  route(app, endpoints.search.query, async (request) =>
    toSearchJson(await search.query(await requireViewer(request), request.query)),
  );
}
