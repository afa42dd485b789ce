import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/*
 * A worker thread lowering its own priority: Linux gives each thread its own nice value, named by its id in
 * /proc/thread-self (the library scan's threads do the same, scan-worker.ts). Elsewhere, or when the system refuses,
 * the thread keeps the process's priority.
 */

function threadId(): number | null {
  try {
    const id = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}

export function lowerThisThread(nice: number): void {
  const id = threadId();
  if (id === null || nice <= 0) return;
  try {
    setPriority(id, nice);
  } catch {
    // Not allowed here: the thread runs at the process's priority.
  }
}
