import { parentPort, workerData } from 'node:worker_threads';
import { measureAudio, NoAudio } from './audio-features.js';
import { vectorOf } from './feature-layout.js';
import { lowerThisThread } from './thread-priority.js';
import type { MeasureAnswer, MeasureJob } from './analysis-thread.js';

/*
 * The analysis thread (analysis-thread.ts): measures the samples it is sent (transferred, not copied) and answers the
 * song's vector. The PCM math runs here, off the main thread that answers listeners, at nice 10 like the scan's threads.
 */
lowerThisThread((workerData as { nice?: number } | null)?.nice ?? 0);

function answer(job: MeasureJob): MeasureAnswer {
  try {
    const vector = vectorOf(measureAudio(job.samples));
    return { id: job.id, vector };
  } catch (error) {
    return { id: job.id, error: error instanceof NoAudio ? 'no audio' : String(error) };
  }
}

parentPort?.on('message', (job: MeasureJob) => {
  const reply = answer(job);
  parentPort?.postMessage(reply, 'vector' in reply ? [reply.vector.buffer] : []);
});
