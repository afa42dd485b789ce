import { read } from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { StreamMeter } from '../../media/media-meters.js';

/**
 * Read buffers used over and over: allocating a fresh buffer per read (what fs streams do) makes garbage at the rate
 * the server streams (a GB/s under load), and collecting it costs more CPU than the reads themselves. At most `keep`
 * free buffers are held; past that they are left to the garbage collector.
 */
export class BufferPool {
  private readonly free: Buffer[] = [];

  constructor(
    readonly bufferBytes: number,
    private readonly keep: number,
  ) {}

  take(): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafeSlow(this.bufferBytes);
  }

  /** Only once nothing (no read, no pending socket write) still uses `buffer`. */
  give(buffer: Buffer): void {
    if (this.free.length < this.keep) this.free.push(buffer);
  }
}

/** 256 KiB: a typical player Range request is one read and one socket write. */
export const PUMP_CHUNK_BYTES = 256 * 1024;

/**
 * Writes bytes `start`..`end` (inclusive) of the open file `fd` to `response` (status and headers already set), one
 * pooled buffer at a time: read a chunk, write it, and read the next only once the socket has taken the previous one,
 * so a connection holds one buffer at most and a slow client is never read ahead of. Stops as soon as the response
 * is destroyed (the client went away). Calls `done` exactly once, with an error when the file could not be read
 * (the caller then cuts the response off: its headers are already out); `fd` stays open for the caller to close.
 * Each write the socket took is told to `meter` (a write dropped with a vanished client is not).
 */
export function pumpFile(
  fd: number,
  response: ServerResponse,
  range: { start: number; end: number },
  pool: BufferPool,
  meter: Pick<StreamMeter, 'sent'>,
  done: (error: Error | null) => void,
): void {
  const buffer = pool.take();
  const last = range.end;
  let position = range.start;
  let writing = false;
  let chunkBytes = 0;
  let finished = false;

  const finish = (error: Error | null, reuseBuffer: boolean) => {
    if (finished) return;
    finished = true;
    response.off('close', onClose);
    if (reuseBuffer) pool.give(buffer);
    done(error);
  };

  // Node may drop the callback of a write to a socket that is already gone; the response's close event is then the
  // only sign. The buffer is not reused in that case: the garbage collector takes it once nothing can refer to it.
  // (During a read nothing needs doing here: the read's callback sees the destroyed response.)
  const onClose = () => {
    if (writing && !response.writableFinished) finish(null, false);
  };

  const afterWrite = (error: Error | null | undefined) => {
    writing = false;
    if (!error) meter.sent(chunkBytes);
    if (finished) return;
    // A failed write means the connection is gone: nothing to report.
    if (error || position > last) finish(null, true);
    else readNext();
  };

  const afterRead = (error: NodeJS.ErrnoException | null, bytesRead: number) => {
    if (error) {
      finish(error, true);
    } else if (bytesRead === 0) {
      finish(new Error(`the file ended at byte ${position}, before byte ${last}`), true);
    } else if (response.destroyed) {
      finish(null, true);
    } else {
      position += bytesRead;
      chunkBytes = bytesRead;
      writing = true;
      response.write(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead), afterWrite);
      if (position > last) response.end();
    }
  };

  function readNext(): void {
    if (response.destroyed) {
      finish(null, true);
      return;
    }
    read(fd, buffer, 0, Math.min(buffer.length, last + 1 - position), position, afterRead);
  }

  response.on('close', onClose);
  readNext();
}
