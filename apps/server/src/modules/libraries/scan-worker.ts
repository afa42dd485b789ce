import { parentPort } from 'node:worker_threads';
import { foldersByRoot, readScanFile, UNREADABLE, type ScanFileRead } from './scan-file.js';
import type { ScanJob } from './scan-readers.js';

/*
 * A scan thread (scan-readers.ts): reads the files it is sent (readScanFile, several at once) and answers what it
 * read. Parsing tags is most of a scan's work; here it leaves the main thread to the database and to requests.
 */
const folderOf = foldersByRoot();

async function readJob(job: ScanJob): Promise<ScanFileRead> {
  try {
    return await readScanFile(await folderOf(job.root), job.abs, job.size);
  } catch {
    return { problem: UNREADABLE };
  }
}

parentPort?.on('message', (job: ScanJob) => {
  void readJob(job).then((result) => parentPort?.postMessage({ id: job.id, result }));
});
