import type { App } from '../../http/app-types.js';
import { ratingsRoutes } from './ratings.routes.js';
import type { RatingsService } from './ratings.service.js';

/** Issue 28: each signed-in user's stars on songs, albums and artists. */
export function registerRatings(app: App, { ratings }: { ratings: RatingsService }): void {
  ratingsRoutes(app, ratings);
}
