import type { DownloadTarget } from './offline-audio.js';

/** Messages from the page to the service worker. */
export type WorkerRequest =
  | ({ type: 'download' } & DownloadTarget)
  /** The download cache changed outside the worker (a removal): it re-reads what it holds. */
  | { type: 'downloads-changed' };

/** The worker's answer to a download, through the MessageChannel port sent along. */
export type DownloadReply =
  | { ok: true; size: number }
  /** status 0: the server could not be reached. */
  | { ok: false; status: number; code: string; message: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function isWorkerRequest(value: unknown): value is WorkerRequest {
  if (!isRecord(value)) return false;
  if (value.type === 'downloads-changed') return true;
  return (
    value.type === 'download' &&
    typeof value.songId === 'number' &&
    typeof value.link === 'string' &&
    (value.cover === null || typeof value.cover === 'string')
  );
}

export function isDownloadReply(value: unknown): value is DownloadReply {
  if (!isRecord(value)) return false;
  if (value.ok === true) return typeof value.size === 'number';
  return (
    value.ok === false &&
    typeof value.status === 'number' &&
    typeof value.code === 'string' &&
    typeof value.message === 'string'
  );
}
