import type { App } from '../../http/app-types.js';
import type { ModuleDeps } from '../shared-deps.js';
import { createPlaysRepository } from './plays.repository.js';
import { playsRoutes } from './plays.routes.js';
import { PlaysService } from './plays.service.js';

/** Each signed-in user's play history (`/api/plays`). */
export function registerPlays(app: App, deps: ModuleDeps): void {
  playsRoutes(app, new PlaysService(createPlaysRepository(deps.db)));
}
