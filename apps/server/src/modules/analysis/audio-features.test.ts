import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FFMPEG, requireFfmpeg } from '../../../test/ffmpeg.js';
import { ANALYSIS_SAMPLE_RATE, measureAudio, NoAudio, tempoBpm, type Measures } from './audio-features.js';
import { DecodeFailed, decodeArgs, decodePcm, excerptOf } from './decode-pcm.js';
import { encodeVector, vectorOf } from './feature-layout.js';

/*
 * The analysis on audio made by ffmpeg's generators, decoded the way the server decodes it: each measure answers what
 * the signal was built to have.
 */

const run = promisify(execFile);
let dir = '';

/** `seconds` of an ffmpeg lavfi source, encoded to FLAC at 44.1 kHz. */
async function generated(name: string, source: string, seconds = 20): Promise<string> {
  const file = path.join(dir, `${name}.flac`);
  await run(
    FFMPEG,
    ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', source, '-t', String(seconds)].concat([
      '-ar',
      '44100',
      file,
    ]),
  );
  return file;
}

/** A click track: 10 ms of a 1 kHz tone every beat of `bpm`. */
const clicks = (bpm: number) =>
  `aevalsrc='if(lt(mod(t\\,${(60 / bpm).toFixed(6)})\\,0.01)\\,sin(2*PI*1000*t)\\,0)':s=44100`;

async function measured(file: string): Promise<Measures> {
  return measureAudio(await decodePcm({ ffmpegPath: FFMPEG, input: { path: file }, startSeconds: 0, seconds: 60 }));
}

beforeAll(async () => {
  await requireFfmpeg();
  dir = await mkdtemp(path.join(tmpdir(), 'tonearm-analysis-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('audio features', () => {
  it('finds the tempo of a click track: 120 BPM and 90 BPM, each within 2 BPM, with a clear pulse', async () => {
    const fast = await measured(await generated('clicks-120', clicks(120)));
    const slow = await measured(await generated('clicks-90', clicks(90)));
    expect(Math.abs(tempoBpm(fast) - 120)).toBeLessThan(2);
    expect(Math.abs(tempoBpm(slow) - 90)).toBeLessThan(2);
    expect(fast.pulseClarity).toBeGreaterThan(0.7);
    // One onset a beat: 2 a second at 120 BPM, 1.5 at 90.
    expect(fast.onsetRate).toBeCloseTo(2, 1);
    expect(slow.onsetRate).toBeCloseTo(1.5, 1);
  });

  it('tells a sine from white noise: flat spectrum, bright centroid and no pulse for the noise', async () => {
    const sine = await measured(await generated('sine', 'sine=frequency=440:sample_rate=44100'));
    const noise = await measured(await generated('noise', 'anoisesrc=color=white:sample_rate=44100:seed=3'));
    expect(sine.flatness).toBeLessThan(-40);
    expect(noise.flatness).toBeGreaterThan(-10);
    expect(2 ** (sine.centroid ?? 0)).toBeCloseTo(440, -1);
    expect(2 ** (noise.centroid ?? 0)).toBeGreaterThan(4000);
    expect(noise.zcr).toBeGreaterThan(10 * (sine.zcr ?? 0));
    // Steady signals have no beat.
    expect(sine.pulseClarity).toBeLessThan(0.1);
    expect(noise.pulseClarity).toBeLessThan(0.1);
  });

  it('hears low-passed noise as darker than the same noise unfiltered', async () => {
    const bright = await measured(await generated('pink', 'anoisesrc=color=pink:sample_rate=44100:seed=5'));
    const dark = await measured(
      await generated('pink-dark', 'anoisesrc=color=pink:sample_rate=44100:seed=5,lowpass=f=500,lowpass=f=500'),
    );
    expect(dark.centroid).toBeLessThan((bright.centroid ?? 0) - 1);
    expect(dark.rolloff).toBeLessThan(bright.rolloff ?? 0);
    expect(dark.treble).toBeLessThan((bright.treble ?? 0) - 10);
  });

  it('finds a key in a major triad and none in noise', async () => {
    const chord = await measured(
      await generated(
        'c-major',
        'sine=frequency=261.63:sample_rate=44100[a];sine=frequency=329.63:sample_rate=44100[b];' +
          'sine=frequency=392:sample_rate=44100[c];[a][b][c]amix=inputs=3',
      ),
    );
    const noise = await measured(await generated('noise-key', 'anoisesrc=color=white:sample_rate=44100:seed=9'));
    expect(chord.keyClarity).toBeGreaterThan(0.6);
    expect(chord.mode).toBeGreaterThan(0);
    expect(chord.chromaEntropy).toBeLessThan(noise.chromaEntropy ?? 0);
  });

  it('gives the same vector, bit for bit, for the same file analysed twice', async () => {
    const file = await generated('twice', `${clicks(100)},volume=0.5`, 12);
    const first = encodeVector(vectorOf(await measured(file)));
    const second = encodeVector(vectorOf(await measured(file)));
    expect(second.equals(first)).toBe(true);
    expect(Array.from(vectorOf(await measured(file))).every(Number.isFinite)).toBe(true);
  });

  it('refuses digital silence (NoAudio) and an empty buffer', async () => {
    const silence = await generated('silence', 'anullsrc=sample_rate=44100', 5);
    await expect(measured(silence)).rejects.toBeInstanceOf(NoAudio);
    expect(() => measureAudio(new Float32Array(0))).toThrow(NoAudio);
  });
});

describe('decoding for the analysis', () => {
  it('decodes the excerpt asked for: mono float samples at the analysis rate', async () => {
    const file = await generated('long', 'sine=frequency=220:sample_rate=44100', 30);
    const pcm = await decodePcm({ ffmpegPath: FFMPEG, input: { path: file }, startSeconds: 10, seconds: 5 });
    expect(pcm.length).toBeGreaterThan(5 * ANALYSIS_SAMPLE_RATE - 100);
    expect(pcm.length).toBeLessThanOrEqual(5 * ANALYSIS_SAMPLE_RATE + 100);
    expect(Math.max(...pcm.subarray(0, 10_000))).toBeGreaterThan(0.1);
  });

  it("answers DecodeFailed with ffmpeg's reason for a file that is not audio", async () => {
    const file = path.join(dir, 'not-audio.mp3');
    await writeFile(file, 'this is not audio at all');
    await expect(decodePcm({ ffmpegPath: FFMPEG, input: { path: file }, startSeconds: 0, seconds: 5 })).rejects.toThrow(
      DecodeFailed,
    );
  });

  it('takes the excerpt from the middle of the song, or from the start when its length is unknown', () => {
    expect(excerptOf(180_000, 60)).toEqual({ startSeconds: 60, seconds: 60 });
    expect(excerptOf(30_000, 60)).toEqual({ startSeconds: 0, seconds: 60 });
    expect(excerptOf(null, 60)).toEqual({ startSeconds: 0, seconds: 60 });
    expect(decodeArgs({ input: { path: '/m/a.flac' }, startSeconds: 60, seconds: 60 })).toEqual(
      expect.arrayContaining(['-ss', '60.000', '-t', '60.000', '-i', '/m/a.flac', '-ac', '1', '-f', 'f32le']),
    );
  });
});
