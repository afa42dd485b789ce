import type { App } from '../../http/app-types.js';
import type { ModuleDeps } from '../shared-deps.js';
import { downloadsRoutes } from './downloads.routes.js';
import type { DownloadsService } from './downloads.service.js';

/** Songs as files to keep (`/api/songs/{id}/download`). */
export function registerDownloads(
  app: App,
  { downloads, meters }: Pick<ModuleDeps, 'meters'> & { downloads: DownloadsService },
): void {
  downloadsRoutes(app, downloads, meters.streams);
}
