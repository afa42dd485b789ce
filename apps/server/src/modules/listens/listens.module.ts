import type { App } from '../../http/app-types.js';
import type { ListensExportService } from './listens-export.service.js';
import { listensRoutes } from './listens.routes.js';

export function registerListens(app: App, deps: { listensExport: ListensExportService }): void {
  listensRoutes(app, deps.listensExport);
}
