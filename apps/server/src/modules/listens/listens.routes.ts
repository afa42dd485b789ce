import { endpoints } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { requireViewer } from '../../http/session.js';
import { attachmentDisposition } from '../downloads/download-filename.js';
import { EXPORT_CONTENT_TYPES, exportFilename, type ExportFormat } from './listens-export.js';
import type { ListensExportService } from './listens-export.service.js';

/** The caller's own listens as a file; nobody, administrators included, exports another listener's. */
export function listensRoutes(app: App, listens: ListensExportService): void {
  for (const [spec, format] of [
    [endpoints.listens.exportCsv, 'csv'],
    [endpoints.listens.exportJson, 'json'],
  ] as const) {
    route(app, spec, async (request, reply) => {
      const viewer = await requireViewer(request);
      const filename = exportFilename(viewer.username, format satisfies ExportFormat, new Date());
      return reply
        .header('content-type', EXPORT_CONTENT_TYPES[format])
        .header('content-disposition', attachmentDisposition(filename))
        .header('cache-control', 'private, no-store')
        .send(listens.export(viewer, format));
    });
  }
}
