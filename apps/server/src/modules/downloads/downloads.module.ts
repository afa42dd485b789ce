import type { App } from '../../http/app-types.js';
import type { ModuleDeps } from '../shared-deps.js';
import { createDownloadsRepository } from './downloads.repository.js';
import { downloadsRoutes } from './downloads.routes.js';
import { DownloadsService } from './downloads.service.js';

/** Songs as files to keep (`/api/songs/{id}/download`). */
export function registerDownloads(app: App, deps: ModuleDeps): void {
  downloadsRoutes(
    app,
    new DownloadsService(createDownloadsRepository(deps.db), deps.blobs, deps.offload),
    deps.meters.streams,
  );
}
