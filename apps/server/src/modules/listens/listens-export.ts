import { Readable } from 'node:stream';
import { UNKNOWN_ARTIST, type ExportedListen } from '@tonearm/contract';
import { seesLibrary } from '../../db/library-visibility.js';
import type { ExportRow } from './listens-export.repository.js';

export type ExportFormat = 'csv' | 'json';

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

/** The CSV's columns, in order: ExportedListen's fields in snake_case. */
export const CSV_COLUMNS = [
  'played_at',
  'listened_ms',
  'song_id',
  'song',
  'artist',
  'album',
  'source',
  'client',
] as const;

/**
 * A listen as the listener exports it. A song deleted since, or now in a library hidden from them, is unknown: only
 * when and how long remain (the export never names a song the listener may not see today).
 */
export function exportedListen(row: ExportRow, hidden: readonly number[]): ExportedListen {
  const known = row.song_id !== null && row.song_name !== null && seesLibrary(hidden, row.library_id);
  return {
    playedAt: row.played_at,
    listenedMs: row.listened_ms,
    songId: known ? row.song_id : null,
    song: known ? row.song_name : null,
    artist: known ? (row.display_artist ?? row.artist_name ?? UNKNOWN_ARTIST) : null,
    album: known && row.album_placeholder !== 1 ? row.album_name : null,
    source: row.source,
    client: row.client,
  };
}

/** Cells a spreadsheet would run as a formula (OWASP's CSV injection list): written with a leading `'`. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break, quotes doubled. A cell that would
 * start a formula gets a leading apostrophe first, so a song called "=HYPERLINK(…)" opens as text.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record, CRLF-terminated as RFC 4180 says. */
export function csvRecord(values: readonly (string | number | null)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

function csvOf(listen: ExportedListen): string {
  const { playedAt, listenedMs, songId, song, artist, album, source, client } = listen;
  return csvRecord([playedAt, listenedMs, songId, song, artist, album, source, client]);
}

/**
 * The export as a stream, written page by page as the reader takes it (Readable.from pulls the next page only when
 * the socket has room): CSV with its header line, or one JSON array.
 */
export function exportStream(pages: AsyncIterable<readonly ExportedListen[]>, format: ExportFormat): Readable {
  async function* text(): AsyncGenerator<string> {
    let first = true;
    yield format === 'csv' ? csvRecord(CSV_COLUMNS) : '[';
    for await (const page of pages) {
      if (page.length === 0) continue;
      if (format === 'csv') {
        yield page.map(csvOf).join('');
      } else {
        yield `${first ? '' : ','}${page.map((listen) => JSON.stringify(listen)).join(',')}`;
        first = false;
      }
    }
    if (format === 'json') yield ']';
  }
  return Readable.from(text(), { objectMode: false });
}

/** The file's name: the listener's, and the day of the export. */
export function exportFilename(username: string, format: ExportFormat, now: Date): string {
  return `tonearm-listens-${username}-${now.toISOString().slice(0, 10)}.${format}`;
}
