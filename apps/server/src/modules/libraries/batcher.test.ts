import { afterEach, describe, expect, it, vi } from 'vitest';
import { Batcher } from './batcher.js';

/** A batcher whose writes are recorded, and held until `release()` when `hold` is set. */
function recording(options: { size: number; maxWaitMs: number }, hold = false) {
  const written: number[][] = [];
  let release: () => void = () => undefined;
  let gate = hold ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
  const batcher = new Batcher<number>(async (batch) => {
    await gate;
    written.push(batch);
  }, options);
  return {
    batcher,
    written,
    release() {
      release();
      gate = Promise.resolve();
    },
  };
}

describe('Batcher', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hands over a batch as soon as it is full, in arrival order', async () => {
    const { batcher, written } = recording({ size: 3, maxWaitMs: 60_000 });
    for (const item of [1, 2, 3, 4, 5, 6, 7]) await batcher.add(item);
    expect(written).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    await batcher.flush();
    expect(written).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
  });

  it('hands over a batch that is not full once its first item has waited maxWaitMs', async () => {
    vi.useFakeTimers();
    const { batcher, written } = recording({ size: 100, maxWaitMs: 250 });
    await batcher.add(1);
    await vi.advanceTimersByTimeAsync(200);
    await batcher.add(2);
    expect(written).toEqual([]);
    await vi.advanceTimersByTimeAsync(50);
    expect(written).toEqual([[1, 2]]);
    // The next batch has a clock of its own, started by its own first item.
    await batcher.add(3);
    await vi.advanceTimersByTimeAsync(249);
    expect(written).toEqual([[1, 2]]);
    await vi.advanceTimersByTimeAsync(1);
    expect(written).toEqual([[1, 2], [3]]);
  });

  it('writes one batch at a time; whoever fills a batch waits until it is written', async () => {
    const held = recording({ size: 2, maxWaitMs: 60_000 }, true);
    await held.batcher.add(1);
    let filled = false;
    const filling = held.batcher.add(2).then(() => (filled = true));
    await held.batcher.add(3);
    const second = held.batcher.add(4);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(filled).toBe(false);
    expect(held.written).toEqual([]);
    held.release();
    await Promise.all([filling, second]);
    expect(held.written).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('flushes nothing when nothing is pending', async () => {
    const { batcher, written } = recording({ size: 2, maxWaitMs: 10 });
    await batcher.flush();
    expect(written).toEqual([]);
  });
});
