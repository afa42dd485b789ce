import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
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
  const options = { workerData: { nice: ANALYSIS_NICE } };
  const built = ['./analysis-worker.js', '../analysis-worker.js']
    .map((name) => new URL(name, import.meta.url))
    .find((url) => url.pathname.endsWith('/dist/analysis-worker.js') && existsSync(fileURLToPath(url)));
  if (built !== undefined) return new Worker(built, options);
  const source = new URL('./analysis-worker.ts', import.meta.url).href;
  // require.resolve answers tsx's CommonJS entry, whose hooks cannot load inside a worker: its ES module is beside it.
  const api = createRequire(import.meta.url)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs');
  const tsx = pathToFileURL(api).href;
  return new Worker(
    `import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${JSON.stringify(source)}, ${JSON.stringify(source)}))`,
    { eval: true, ...options },
  );
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
