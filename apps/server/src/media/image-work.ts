import { ErrorCodes, LimitMessages } from '@tonearm/contract';
import type { Limits } from '../config.js';
import { HttpError } from '../http/errors.js';

/**
 * A small semaphore with a bounded queue: at most `concurrency` jobs run at once, at most `maxQueued` wait for a slot,
 * and anything past that is refused at once with `refuse()` rather than piling up memory and latency. In-process on
 * purpose: it bounds this process's CPU and memory, which is what image decoding costs.
 */
export class WorkGate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly concurrency: number,
    readonly maxQueued: number,
    private readonly refuse: () => Error,
  ) {}

  /** Jobs running now. */
  get running(): number {
    return this.active;
  }

  /** Jobs waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active < this.concurrency) {
      this.active += 1;
    } else {
      if (this.waiting.length >= this.maxQueued) throw this.refuse();
      // The finishing job hands its slot over (active stays the same), so no newcomer can overtake the queue.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next === undefined) this.active -= 1;
      else next();
    }
  }
}

/** How uploaded images are processed: the pixel ceiling and the gate every decode goes through. */
export interface ImageWork {
  maxPixels: number;
  gate: WorkGate;
}

/** 429 (not a 5xx): the request was fine, the server is momentarily full; trying again shortly works. */
export const imagesBusy = () => new HttpError(429, ErrorCodes.serverBusy, LimitMessages.imagesBusy);

export function createImageWork(limits: Pick<Limits, 'imageConcurrency' | 'imageQueue' | 'imageMaxPixels'>): ImageWork {
  return {
    maxPixels: limits.imageMaxPixels,
    gate: new WorkGate(limits.imageConcurrency, limits.imageQueue, imagesBusy),
  };
}
