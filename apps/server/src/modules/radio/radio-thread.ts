/*
 * Where the radio's engine (radio-engine.ts) runs: on a thread of its own (the server: its work uses the second core,
 * and its objects stay out of the event loop's heap), or in this thread (tests of the service, and the bench's
 * reference). Both answer the same calls, asynchronously.
 */
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../threads/module-worker.js';
import { RadioEngine, type Snapshot } from './radio-engine.js';
import { transferables } from './radio-snapshot.js';

/** The radio thread's young generation, in MB (V8's semi-spaces and more). */
const RADIO_YOUNG_MB = 48;

/** What the engine answers, each call as a message to its thread. */
type Calls = Pick<RadioEngine, 'load' | 'choose' | 'similarities' | 'pathNeighbours' | 'indexed' | 'bytes'>;
export type EngineCall = keyof Calls;

export type RadioEngineHost = {
  [K in EngineCall]: (...args: Parameters<Calls[K]>) => Promise<Awaited<ReturnType<Calls[K]>>>;
} & {
  /** Called when the thread died (it should not): its engine is gone, the next call starts an empty one. */
  onLost(listener: () => void): void;
  close(): Promise<void>;
};

export interface EngineMessage {
  id: number;
  call: EngineCall;
  args: unknown[];
}

export type EngineReply = { id: number; result: unknown } | { id: number; error: string };

/** Runs one call on an engine (the thread's message handler, and the in-thread host). */
export async function answerCall(engine: RadioEngine, call: EngineCall, args: unknown[]): Promise<unknown> {
  const method = engine[call].bind(engine) as (...given: unknown[]) => unknown;
  return await method(...args);
}

export function engineInThisThread(): RadioEngineHost {
  const engine = new RadioEngine();
  const call =
    <K extends EngineCall>(name: K) =>
    (...args: Parameters<Calls[K]>) =>
      answerCall(engine, name, args) as Promise<Awaited<ReturnType<Calls[K]>>>;
  return {
    load: call('load'),
    choose: call('choose'),
    similarities: call('similarities'),
    pathNeighbours: call('pathNeighbours'),
    indexed: call('indexed'),
    bytes: call('bytes'),
    onLost: () => undefined,
    close: () => Promise.resolve(),
  };
}

interface Pending {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * The engine on a thread, started on the first call. A thread that dies rejects what it had pending and tells the
 * `onLost` listeners (the service reads its snapshot again); the next call starts another. `onStart` sees each thread
 * started (tests stop one to see the radio recover).
 */
export function engineOnThread(options: { onStart?: (worker: Worker) => void } = {}): RadioEngineHost {
  let worker: Worker | null = null;
  let nextId = 0;
  const pending = new Map<number, Pending>();
  const lost: (() => void)[] = [];
  const started = (): Worker => {
    if (worker !== null) return worker;
    // A young generation larger than the server's (--max-semi-space-size=4): a request's objects die young instead of
    // being promoted among the facts' 100 000, whose every full collection marks them all.
    const thread = startModuleWorker(import.meta.url, 'radio-worker', {
      resourceLimits: { maxYoungGenerationSizeMb: RADIO_YOUNG_MB },
    });
    thread.unref();
    thread.on('message', (reply: EngineReply) => {
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      if ('error' in reply) waiting?.reject(new Error(`radio thread: ${reply.error}`));
      else waiting?.resolve(reply.result);
    });
    const gone = (error: Error) => {
      if (worker !== thread) return;
      worker = null;
      for (const { reject } of pending.values()) reject(error);
      pending.clear();
      for (const listener of lost) listener();
    };
    thread.on('error', gone);
    thread.on('exit', (code) => gone(new Error(`radio thread exited (${code})`)));
    worker = thread;
    options.onStart?.(thread);
    return thread;
  };
  const send = (call: EngineCall, args: unknown[], transfer: ArrayBuffer[] = []) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, { resolve, reject });
      started().postMessage({ id, call, args } satisfies EngineMessage, transfer);
    });
  const call =
    <K extends EngineCall>(name: K) =>
    (...args: Parameters<Calls[K]>) =>
      send(name, args) as Promise<Awaited<ReturnType<Calls[K]>>>;
  return {
    load: (snapshot: Snapshot) => send('load', [snapshot], transferables(snapshot)) as Promise<void>,
    choose: call('choose'),
    similarities: call('similarities'),
    pathNeighbours: call('pathNeighbours'),
    indexed: call('indexed'),
    bytes: call('bytes'),
    onLost: (listener) => lost.push(listener),
    async close() {
      const thread = worker;
      worker = null;
      for (const { reject } of pending.values()) reject(new Error('radio thread closed'));
      pending.clear();
      if (thread !== null) await thread.terminate();
    },
  };
}
