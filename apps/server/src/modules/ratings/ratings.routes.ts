import { endpoints } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { requireViewer } from '../../http/session.js';
import type { RatingsService } from './ratings.service.js';

/** Any signed-in user rates for themselves: PUT sets (0 clears), DELETE clears; both idempotent. */
export function ratingsRoutes(app: App, ratings: RatingsService): void {
  const r = endpoints.ratings;
  route(app, r.rateSong, async (request) => {
    await ratings.rate(await requireViewer(request), 'song', request.params.id, request.body.rating);
  });
  route(app, r.unrateSong, async (request) => {
    await ratings.clear(await requireViewer(request), 'song', request.params.id);
  });
  route(app, r.rateAlbum, async (request) => {
    await ratings.rate(await requireViewer(request), 'album', request.params.id, request.body.rating);
  });
  route(app, r.unrateAlbum, async (request) => {
    await ratings.clear(await requireViewer(request), 'album', request.params.id);
  });
  route(app, r.rateArtist, async (request) => {
    await ratings.rate(await requireViewer(request), 'artist', request.params.id, request.body.rating);
  });
  route(app, r.unrateArtist, async (request) => {
    await ratings.clear(await requireViewer(request), 'artist', request.params.id);
  });
}
