import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { TranscodeMessages } from '@tonearm/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FFMPEG, requireFfmpeg } from '../../../test/ffmpeg.js';
import { ffmpegArgs, trimFilter } from './live-transcode.js';
import { boxesOf, itunesSampleCount, mp4AudioSeconds, readMp4AudioSeconds } from './mp4-length.js';
import { parseTranscodeQuery } from './transcode-query.js';

const run = promisify(execFile);
/** Samples of the test tone: not a whole number of AAC frames (1024) nor of milliseconds at 44.1 kHz. */
const SAMPLES = 176_773;
const RATE = 44_100;

let dir: string;

async function ffmpeg(...args: string[]): Promise<void> {
  await run(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
}

/** Stereo samples ffmpeg decodes from a file (at its own rate). */
async function decodedSamples(file: string): Promise<number> {
  const { stdout } = await run(FFMPEG, ['-v', 'error', '-i', file, '-f', 's16le', '-ac', '2', '-'], {
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout.length / 4;
}

beforeAll(async () => {
  await requireFfmpeg();
  dir = await mkdtemp(path.join(tmpdir(), 'tonearm-gapless-'));
  const tone = `sine=frequency=441:sample_rate=${RATE}`;
  await ffmpeg('-f', 'lavfi', '-i', tone, '-af', `atrim=end_sample=${SAMPLES}`, '-ac', '2', path.join(dir, 'tone.wav'));
  const wav = path.join(dir, 'tone.wav');
  // iTunes-like: the edit list in the audio's own timescale. ffmpeg's default: in milliseconds.
  await ffmpeg('-i', wav, '-c:a', 'aac', '-b:a', '128k', '-movie_timescale', String(RATE), path.join(dir, 'exact.m4a'));
  await ffmpeg('-i', wav, '-c:a', 'aac', '-b:a', '128k', path.join(dir, 'ms.m4a'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('?format=gapless', () => {
  it('is lossless (one cache entry whatever the bitrate) and may start at an offset', () => {
    expect(parseTranscodeQuery('format=gapless&bitrate=320')).toEqual({ format: 'gapless', bitrate: 128 });
    expect(parseTranscodeQuery('format=gapless&offset=92500')).toEqual({
      format: 'gapless',
      bitrate: 128,
      offsetMs: 92_500,
    });
    expect(parseTranscodeQuery('format=gapless&offset=0')).toEqual({ format: 'gapless', bitrate: 128 });
  });

  it.each([
    'format=gapless&offset=-1',
    'format=gapless&offset=1.5',
    'format=gapless&offset=1&offset=2',
    'format=mp3&offset=5',
  ])('refuses a bad offset: %s', (query) => {
    expect(() => parseTranscodeQuery(query)).toThrow(TranscodeMessages.badOffset);
  });

  it('is FLAC in fragmented MP4, cut to the real length from where it starts', () => {
    const args = ffmpegArgs({
      input: { path: '/a.m4a' },
      format: 'gapless',
      bitrate: 128,
      lengthSeconds: 4.5,
      offsetMs: 500,
    });
    expect(args).toEqual(
      expect.arrayContaining(['-c:a', 'flac', '-f', 'mp4', 'frag_keyframe+empty_moov+default_base_moof']),
    );
    expect(args).toContain('atrim=end=4.000000000');
    expect(trimFilter(null, 0)).toEqual([]);
    expect(trimFilter(2, 3000)).toEqual([]);
  });
});

describe('an MP4 audio length from its gapless info', () => {
  it("is exact from an edit list in the audio's timescale, and to the millisecond from ffmpeg's default", async () => {
    expect(await readMp4AudioSeconds(path.join(dir, 'exact.m4a'))).toBe(SAMPLES / RATE);
    expect(await readMp4AudioSeconds(path.join(dir, 'ms.m4a'))).toBe(4.008);
  });

  it("is iTunes' iTunSMPB sample count when there is one", () => {
    expect(itunesSampleCount(' 00000000 00000840 000001CA 000000000002B285 00000000')).toBe(0x2b285);
    expect(itunesSampleCount('nonsense')).toBeNull();
  });

  it('is null for a moov without a sound track or edits', () => {
    expect(mp4AudioSeconds(Buffer.alloc(0))).toBeNull();
    expect(boxesOf(Buffer.from([0, 0, 0, 9, 0x66, 0x72, 0x65, 0x65]))).toEqual([]);
  });

  it('makes the gapless stream of an AAC file exactly as long as the audio that was encoded', async () => {
    const input = path.join(dir, 'exact.m4a');
    expect(await decodedSamples(input)).toBeGreaterThan(SAMPLES);
    const output = path.join(dir, 'exact.gapless.mp4');
    const lengthSeconds = await readMp4AudioSeconds(input);
    const args = ffmpegArgs({ input: { path: input }, format: 'gapless', bitrate: 128, lengthSeconds });
    await run(FFMPEG, [...args.slice(0, -1), '-y', output]);
    expect(await decodedSamples(output)).toBe(SAMPLES);
  });

  it('keeps every sample of an MP3 (ffmpeg honours the LAME header itself)', async () => {
    const mp3 = path.join(dir, 'tone.mp3');
    await ffmpeg('-i', path.join(dir, 'tone.wav'), '-c:a', 'libmp3lame', '-b:a', '128k', mp3);
    const output = path.join(dir, 'mp3.gapless.mp4');
    const args = ffmpegArgs({ input: { path: mp3 }, format: 'gapless', bitrate: 128 });
    await run(FFMPEG, [...args.slice(0, -1), '-y', output]);
    expect(await decodedSamples(output)).toBe(SAMPLES);
  });
});
