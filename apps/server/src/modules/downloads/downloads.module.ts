import type { App, AppDeps } from '../../http/app-types.js';
import { createDownloadsRepository } from './downloads.repository.js';
import { downloadsRoutes } from './downloads.routes.js';

export function registerDownloads(app: App, deps: AppDeps): void {
  downloadsRoutes(app, deps.blobs, createDownloadsRepository(deps.db));
}
