import type { App } from '../../http/app-types.js';
import { playsRoutes } from './plays.routes.js';
import type { PlaysService } from './plays.service.js';

/** Each signed-in user's play history (`/api/plays`). */
export function registerPlays(app: App, { plays }: { plays: PlaysService }): void {
  playsRoutes(app, plays);
}
