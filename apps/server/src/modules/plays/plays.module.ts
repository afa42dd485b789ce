import type { App, AppDeps } from '../../http/app-types.js';
import { createPlaysRepository } from './plays.repository.js';
import { playsRoutes } from './plays.routes.js';
import { PlaysService } from './plays.service.js';

export function registerPlays(app: App, deps: AppDeps): void {
  playsRoutes(app, new PlaysService(createPlaysRepository(deps.db)));
}
