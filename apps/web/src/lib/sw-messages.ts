import type { DownloadTarget } from './offline-audio.js';

/** Messages from the page to the service worker. */
export type WorkerRequest =
  /** Download into `userId`'s cache (the page's signed-in user). */
  | ({ type: 'download'; userId: number } & DownloadTarget)
  /** The download cache changed outside the worker (a removal): it re-reads what it holds. */
  | { type: 'downloads-changed' }
  /** Who is signed in now (null: nobody). The worker answers offline audio only from that user's downloads. */
  | { type: 'signed-in-user'; userId: number | null };

/** The worker's answer to a download, through the MessageChannel port sent along. */
export type DownloadReply =
  | { ok: true; size: number }
  /** status 0: the server could not be reached. */
  | { ok: false; status: number; code: string; message: string };

const isUserId = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function isWorkerRequest(value: unknown): value is WorkerRequest {
  if (!isRecord(value)) return false;
  if (value.type === 'downloads-changed') return true;
  if (value.type === 'signed-in-user') return value.userId === null || isUserId(value.userId);
  return (
    value.type === 'download' &&
    isUserId(value.userId) &&
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
