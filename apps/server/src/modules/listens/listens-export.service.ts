import type { Readable } from 'node:stream';
import type { ExportedListen } from '@tonearm/contract';
import { exportedListen, exportStream, type ExportFormat } from './listens-export.js';
import type { ExportCursor, ListensExportRepository } from './listens-export.repository.js';

/** Listens a page of the export reads at a time. */
const EXPORT_PAGE_ROWS = 1000;

export interface Listener {
  id: number;
  hiddenLibraries: readonly number[];
}

/** Issue 28: a listener's own listens as CSV or JSON, streamed a page at a time (never anyone else's). */
export class ListensExportService {
  constructor(private readonly listens: ListensExportRepository) {}

  /** Every listen of the listener, oldest first, as a stream of CSV or JSON text. */
  export(listener: Listener, format: ExportFormat): Readable {
    return exportStream(this.pages(listener), format);
  }

  private async *pages(listener: Listener): AsyncGenerator<ExportedListen[]> {
    let cursor: ExportCursor = null;
    for (;;) {
      const rows = await this.listens.exportPage(listener.id, cursor, EXPORT_PAGE_ROWS);
      yield rows.map((row) => exportedListen(row, listener.hiddenLibraries));
      const last = rows.at(-1);
      if (last === undefined || rows.length < EXPORT_PAGE_ROWS) return;
      cursor = { playedAt: last.played_at, id: last.id };
    }
  }
}
