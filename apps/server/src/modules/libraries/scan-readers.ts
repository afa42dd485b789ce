import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../threads/module-worker.js';
import { foldersByRoot, readScanFile, type ScanFileRead } from './scan-file.js';

/**
 * The nice value a scan thread gives itself (scan-worker.ts): `npm run import`'s default, so that a scan, like an
 * import, leaves the machine's cores to the requests first.
 */
export const SCAN_THREAD_NICE = 10;

/** A file for a scan thread to read. */
export interface ScanJob {
  id: number;
  /** The library's folder. */
  root: string;
  abs: string;
  size: number;
  /** The lyrics file beside it, if the walk found one. */
  sidecar: string | null;
}

/** Reads a scan's new and changed files (readScanFile): in this thread, or in scan threads. */
export interface ScanReader {
  read(root: string, abs: string, size: number, sidecar: string | null): Promise<ScanFileRead>;
  /** Stops the scan threads; reads still pending are read in this thread. */
  close(): Promise<void>;
}

/** Reads in this thread. */
function inThisThread(): ScanReader {
  const folderOf = foldersByRoot();
  return {
    read: async (root, abs, size, sidecar) => readScanFile(await folderOf(root), abs, size, sidecar),
    close: () => Promise.resolve(),
  };
}

/**
 * The scan thread's module: the built server's dist/scan-worker.js beside the bundle (or its chunk), else the
 * TypeScript source (tests, `npm run dev`), loaded through tsx.
 */
function startThread(): Worker {
  return startModuleWorker(import.meta.url, 'scan-worker', { workerData: { nice: SCAN_THREAD_NICE } });
}

interface Pending {
  job: ScanJob;
  resolve: (read: ScanFileRead) => void;
}

/**
 * A reader over `threads` scan threads (files handed out in turn), or in this thread when `threads` is 0. A thread that
 * fails or exits is not replaced: its pending files, and every file after, are read in this thread.
 */
export function createScanReader(threads: number): ScanReader {
  const local = inThisThread();
  if (threads < 1) return local;
  let nextId = 0;
  let turn = 0;
  let closing = false;
  const live: { worker: Worker; pending: Map<number, Pending> }[] = [];
  const fallBack = (thread: (typeof live)[number]) => {
    const at = live.indexOf(thread);
    if (at >= 0) live.splice(at, 1);
    for (const { job, resolve } of thread.pending.values()) {
      void local.read(job.root, job.abs, job.size, job.sidecar).then(resolve);
    }
    thread.pending.clear();
  };
  for (let n = 0; n < threads; n++) {
    const thread = { worker: startThread(), pending: new Map<number, Pending>() };
    thread.worker.on('message', ({ id, result }: { id: number; result: ScanFileRead }) => {
      thread.pending.get(id)?.resolve(result);
      thread.pending.delete(id);
    });
    thread.worker.on('error', () => fallBack(thread));
    thread.worker.on('exit', () => fallBack(thread));
    live.push(thread);
  }
  return {
    read(root, abs, size, sidecar) {
      const thread = closing ? undefined : live[turn++ % Math.max(1, live.length)];
      if (thread === undefined) return local.read(root, abs, size, sidecar);
      const job = { id: nextId++, root, abs, size, sidecar };
      return new Promise<ScanFileRead>((resolve) => {
        thread.pending.set(job.id, { job, resolve });
        thread.worker.postMessage(job);
      });
    },
    async close() {
      closing = true;
      await Promise.all([...live].map((thread) => thread.worker.terminate()));
    },
  };
}
