import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { foldersByRoot, readScanFile, UNREADABLE, type ScanFileRead } from './scan-file.js';
import type { ScanJob } from './scan-readers.js';

/*
 * A scan thread (scan-readers.ts): reads the files it is sent (readScanFile, several at once) and answers what it
 * read. Parsing tags is most of a scan's work; here it leaves the main thread to the database and to requests. The
 * thread lowers its own priority (Linux gives each thread its nice value; `nice` in workerData, 10 as the import's
 * default), so that on a busy machine the system runs the thread that answers listeners first.
 */
const folderOf = foldersByRoot();

/** This thread's id to the system (Linux: /proc/thread-self names it), or null elsewhere. */
function threadId(): number | null {
  try {
    const id = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}

function lowerPriority(nice: number): void {
  const id = threadId();
  if (id === null || nice <= 0) return;
  try {
    setPriority(id, nice);
  } catch {
    // Not allowed here: the thread runs at the process's priority.
  }
}

lowerPriority((workerData as { nice?: number } | null)?.nice ?? 0);

async function readJob(job: ScanJob): Promise<ScanFileRead> {
  try {
    return await readScanFile(await folderOf(job.root), job.abs, job.size, job.sidecar);
  } catch {
    return { problem: UNREADABLE };
  }
}

parentPort?.on('message', (job: ScanJob) => {
  void readJob(job).then((result) => parentPort?.postMessage({ id: job.id, result }));
});
