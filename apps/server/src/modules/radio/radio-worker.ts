/* The radio's thread (radio-thread.ts): one engine, answering the calls posted to it in turn. */
import { parentPort } from 'node:worker_threads';
import { RadioEngine } from './radio-engine.js';
import { answerCall, type EngineMessage, type EngineReply } from './radio-thread.js';

const engine = new RadioEngine();
parentPort?.on('message', (message: EngineMessage) => {
  answerCall(engine, message.call, message.args).then(
    (result) => parentPort?.postMessage({ id: message.id, result } satisfies EngineReply),
    (error: unknown) =>
      parentPort?.postMessage({
        id: message.id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      } satisfies EngineReply),
  );
});
