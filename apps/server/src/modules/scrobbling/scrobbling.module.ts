import type { App } from '../../http/app-types.js';
import { scrobblingRoutes } from './scrobbling.routes.js';
import type { ScrobblingService } from './scrobbling.service.js';

/** Scrobbling out (issue 28): each listener's ListenBrainz and Last.fm accounts. */
export function registerScrobbling(app: App, { scrobbling }: { scrobbling: ScrobblingService }): void {
  scrobblingRoutes(app, scrobbling);
}
