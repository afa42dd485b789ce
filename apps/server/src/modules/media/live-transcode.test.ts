import { chmod, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FFMPEG } from '../../../test/ffmpeg.js';
import { FfmpegRefused, ffmpegArgs, LiveTranscode } from './live-transcode.js';
import { lyingWavs } from '../../media/lying-media.fixtures.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tonearm-live-transcode-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A stand-in for ffmpeg that ignores SIGTERM and writes forever: only SIGKILL stops it. */
async function stubbornEncoder(): Promise<string> {
  const script = path.join(dir, 'stubborn');
  await writeFile(script, '#!/bin/sh\ntrap "" TERM\nwhile true; do printf x; sleep 0.05; done\n');
  await chmod(script, 0o755);
  return script;
}

describe('LiveTranscode', () => {
  it('asks ffmpeg for the first audio stream only, without tags, in the format and bitrate wanted', () => {
    expect(ffmpegArgs({ input: { path: '/blobs/a.flac' }, format: 'opus', bitrate: 96 })).toEqual([
      ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-i', '/blobs/a.flac', '-map', '0:a:0'],
      ...['-map_metadata', '-1', '-c:a', 'libopus', '-b:a', '96k', '-f', 'ogg', 'pipe:1'],
    ]);
    expect(ffmpegArgs({ input: { path: 'x' }, format: 'mp3', bitrate: 320 })).toContain('libmp3lame');
  });

  it('starts at an offset by seeking the input (-ss before -i), from a file or a pipe', () => {
    const fromFile = ffmpegArgs({ input: { path: '/blobs/a.flac' }, format: 'mp3', bitrate: 128, offsetMs: 92_500 });
    expect(fromFile.slice(3, 8)).toEqual(['-nostdin', '-ss', '92.500', '-i', '/blobs/a.flac']);
    const fromPipe = ffmpegArgs({ input: { stream: Readable.from([]) }, format: 'opus', bitrate: 96, offsetMs: 1 });
    expect(fromPipe.slice(3, 7)).toEqual(['-ss', '0.001', '-i', 'pipe:0']);
    expect(ffmpegArgs({ input: { path: 'x' }, format: 'mp3', bitrate: 128, offsetMs: 0 })).not.toContain('-ss');
  });

  it('SIGKILLs a process that ignores SIGTERM once the grace is over, and removes its partial output', async () => {
    const tempPath = path.join(dir, 'out.tmp');
    const live = new LiveTranscode({
      ffmpegPath: await stubbornEncoder(),
      input: { path: '/dev/null' },
      format: 'opus',
      bitrate: 128,
      tempPath,
      // Far beyond the 150 ms wait below, which a loaded machine may stretch.
      killGraceMs: 1500,
    });
    const release = live.hold();
    // Its first output comes after the trap is set: from then on SIGTERM is ignored.
    await vi.waitFor(async () => expect((await stat(tempPath)).size).toBeGreaterThan(0), { timeout: 5000 });
    const pid = live.pid ?? 0;
    release();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(isAlive(pid)).toBe(true);
    await expect(live.done).rejects.toThrow(/ffmpeg exited/);
    expect(isAlive(pid)).toBe(false);
    expect(live.wasKilled).toBe(true);
    await expect(stat(tempPath)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('fails, leaving no file, when the binary cannot start', async () => {
    const tempPath = path.join(dir, 'none.tmp');
    const live = new LiveTranscode({
      ffmpegPath: path.join(dir, 'no-such-ffmpeg'),
      input: { path: '/dev/null' },
      format: 'mp3',
      bitrate: 128,
      tempPath,
      killGraceMs: 300,
    });
    await expect(live.done).rejects.toThrow();
    await expect(stat(tempPath)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('fails with FfmpegRefused, leaving no file, when ffmpeg refuses the input', async () => {
    const input = path.join(dir, 'zero-channels.wav');
    await writeFile(input, lyingWavs().zeroChannels);
    const tempPath = path.join(dir, 'refused.tmp');
    const live = new LiveTranscode({
      ffmpegPath: FFMPEG,
      input: { path: input },
      format: 'opus',
      bitrate: 64,
      tempPath,
      killGraceMs: 300,
    });
    const release = live.hold();
    await expect(live.done).rejects.toBeInstanceOf(FfmpegRefused);
    release();
    expect(live.failure).toBeInstanceOf(FfmpegRefused);
    expect(live.wasKilled).toBe(false);
    await expect(stat(tempPath)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
