import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ErrorCodes, LimitMessages } from '@tonearm/contract';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HttpError } from '../http/errors.js';
import { LocalBlobStore } from '../storage/local-blob-store.js';
import { createImageWork, imagesBusy, WorkGate } from './image-work.js';
import { claimedPng, imageFile } from '../../test/media.js';
import { tempFiles } from '../../test/stored.js';
import { claimedJpeg, claimedWebp } from './lying-media.fixtures.js';
import { ImageMessages } from './media.formats.js';
import { stageImage } from './staging.js';

/** A promise and the function that settles it, to hold a job open for as long as a test wants. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  const settle: { resolve?: () => void } = {};
  const promise = new Promise<void>((done) => {
    settle.resolve = done;
  });
  return { promise, resolve: () => settle.resolve?.() };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('WorkGate', () => {
  it('runs at most `concurrency` jobs, queues up to `maxQueued` in order, refuses the rest at once', async () => {
    const gate = new WorkGate(2, 1, imagesBusy);
    const holds = [deferred(), deferred(), deferred()];
    const started: number[] = [];
    const jobs = holds.map((hold, index) =>
      gate.run(async () => {
        started.push(index);
        await hold.promise;
        return index;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect([gate.running, gate.queued]).toEqual([2, 1]);

    const refused = await gate.run(() => Promise.resolve('never')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ status: 429, code: ErrorCodes.serverBusy, message: LimitMessages.imagesBusy });

    holds[1]?.resolve();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    expect([gate.running, gate.queued]).toEqual([2, 0]);
    holds[0]?.resolve();
    holds[2]?.resolve();
    expect(await Promise.all(jobs)).toEqual([0, 1, 2]);
    expect([gate.running, gate.queued]).toEqual([0, 0]);
  });

  it('frees the slot of a job that fails', async () => {
    const gate = new WorkGate(1, 0, imagesBusy);
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(gate.running).toBe(0);
    await expect(gate.run(() => Promise.resolve('next'))).resolves.toBe('next');
  });

  it('is made from the configured limits', () => {
    const work = createImageWork({ imageConcurrency: 3, imageQueue: 7, imageMaxPixels: 40_000_000 });
    expect(work.maxPixels).toBe(40_000_000);
    expect([work.gate.concurrency, work.gate.maxQueued]).toEqual([3, 7]);
  });
});

describe('stageImage behind the limits', () => {
  let root: string;
  let store: LocalBlobStore;
  const leftovers = async () => [
    ...(await tempFiles(root)),
    ...(await readdir(path.join(root, 'image')).catch(() => [])),
  ];

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'tonearm-image-work-'));
    store = new LocalBlobStore(root);
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('refuses with 429 when the gate and its queue are full, keeping nothing; works again once it frees', async () => {
    const gate = new WorkGate(1, 0, imagesBusy);
    const hold = deferred();
    const busy = gate.run(() => hold.promise);
    const png = await imageFile(40, 30, 'png');
    const error = await stageImage(store, png, 'image', { gate }).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ status: 429, code: ErrorCodes.serverBusy, message: LimitMessages.imagesBusy });
    expect(await leftovers()).toEqual([]);
    hold.resolve();
    await busy;
    const staged = await stageImage(store, png, 'image', { gate });
    expect(staged.blobs).toHaveLength(4);
    expect(staged.size).toBe(png.length);
  });

  it('refuses more than 40 megapixels by default from the header alone (413 naming the limit), before the gate', async () => {
    const gate = new WorkGate(1, 0, imagesBusy);
    const hold = deferred();
    const busy = gate.run(() => hold.promise);
    // 8000 × 6000 = 48 megapixels, claimed by a header in front of no real pixel data.
    const error = await stageImage(store, claimedPng(8000, 6000), 'image', { gate }).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ status: 413, message: 'Images can be at most 40 megapixels', field: 'image' });
    expect(await leftovers()).toEqual([]);
    hold.resolve();
    await busy;
  });

  it.each([
    ['a PNG whose header claims 100 000 × 100 000 (past libvips’s own limit)', () => claimedPng(100_000, 100_000)],
    ['a PNG whose header claims the largest size PNG allows', () => claimedPng(0x7fffffff, 0x7fffffff)],
    ['a JPEG whose header claims 65 535 × 65 535 (past libjpeg’s largest side)', () => claimedJpeg(65_535, 65_535)],
    ['a JPEG whose header claims 8000 × 6000', () => claimedJpeg(8000, 6000)],
    [
      'a WebP whose canvas claims 20 000 × 20 000 (which libwebp cannot parse)',
      () => claimedWebp(20_000, 20_000, 'VP8X'),
    ],
    ['a WebP whose frame claims 16 383 × 16 383', () => claimedWebp(16_383, 16_383, 'VP8 ')],
  ])('refuses %s with 413 and the pixel message, keeping nothing', async (_name, make) => {
    const error = await stageImage(store, await make(), 'image').catch((reason: unknown) => reason);
    expect(error).toMatchObject({
      status: 413,
      code: ErrorCodes.payloadTooLarge,
      message: ImageMessages.tooManyPixels(),
      field: 'image',
    });
    expect(await leftovers()).toEqual([]);
  });

  it.each(['png', 'jpeg', 'webp'] as const)(
    'refuses a real %s past the pixel limit with the same 413, keeping nothing',
    async (format) => {
      const image = await sharp({ create: { width: 400, height: 300, channels: 3, background: 'teal' } })
        .toFormat(format)
        .toBuffer();
      const error = await stageImage(store, image, 'image', { maxPixels: 100_000 }).catch((reason: unknown) => reason);
      expect(error).toMatchObject({ status: 413, message: ImageMessages.tooManyPixels(100_000), field: 'image' });
      expect(await leftovers()).toEqual([]);
    },
  );
});
