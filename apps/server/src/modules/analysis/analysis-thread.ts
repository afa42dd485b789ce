import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../threads/module-worker.js';
import { ANALYSIS_NICE } from './decode-pcm.js';

/** Samples for the thread to measure. */
export interface MeasureJob {
  id: number;
  samples: Float32Array<ArrayBuffer>;
}

/** The thread's answer: the song's vector, or why there is none ('no audio', or the error's text). */
export type MeasureAnswer = { id: number; vector: Float32Array<ArrayBuffer> } | { id: number; error: string };

/** The measure failed on these samples: the file's fault (a `failed` row). */
export class MeasureFailed extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'MeasureFailed';
  }
}

/** Measures samples on a thread of its own. */
export interface AnalysisThread {
  measure(samples: Float32Array<ArrayBuffer>): Promise<Float32Array>;
  /** Stops the thread; measures still pending reject. */
  close(): Promise<void>;
}

/**
 * The thread's module: the built server's dist/analysis-worker.js beside the bundle (or its chunk), else the
 * TypeScript source (tests, `npm run dev`), loaded through tsx (as the library scan's threads are, scan-readers.ts).
 */
function startWorker(): Worker {
  return startModuleWorker(import.meta.url, 'analysis-worker', { workerData: { nice: ANALYSIS_NICE } });
}

interface Pending {
  resolve: (vector: Float32Array) => void;
  reject: (error: Error) => void;
}

/**
 * One analysis thread, started on the first measure and kept for the next ones. A thread that dies (it should not) is
 * replaced by the next measure; what it had pending rejects.
 */
export function createAnalysisThread(): AnalysisThread {
  let worker: Worker | null = null;
  let nextId = 0;
  const pending = new Map<number, Pending>();
  const failAll = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  const started = (): Worker => {
    if (worker !== null) return worker;
    const thread = startWorker();
    thread.on('message', (reply: MeasureAnswer) => {
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      if ('vector' in reply) waiting?.resolve(reply.vector);
      else waiting?.reject(new MeasureFailed(reply.error));
    });
    const gone = (error: Error) => {
      if (worker === thread) worker = null;
      failAll(error);
    };
    thread.on('error', gone);
    thread.on('exit', () => {
      gone(new Error('the analysis thread stopped'));
    });
    worker = thread;
    return thread;
  };
  return {
    measure(samples) {
      const id = nextId++;
      return new Promise<Float32Array>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        started().postMessage({ id, samples } satisfies MeasureJob, [samples.buffer]);
      });
    },
    async close() {
      const thread = worker;
      worker = null;
      failAll(new Error('the analysis thread was closed'));
      if (thread !== null) await thread.terminate();
    },
  };
}
