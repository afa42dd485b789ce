import { SearchQuery, SearchResponse } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { requireUser } from '../../http/session.js';
import { toSearchJson } from './search.presenter.js';
import type { SearchService } from './search.service.js';

/** `GET /api/search?q=&limit=`: any signed-in user (401 otherwise). */
export function searchRoutes(app: App, search: SearchService): void {
  app.get(
    '/api/search',
    {
      config: { access: 'session' },
      schema: { tags: ['search'], querystring: SearchQuery, response: { 200: SearchResponse } },
    },
    async (request) =>
      toSearchJson(await search.query(await requireUser(request), request.query.q, request.query.limit)),
  );
}
