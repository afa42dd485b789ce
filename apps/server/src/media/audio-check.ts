import { execFile, type ExecFileException } from 'node:child_process';
import { open } from 'node:fs/promises';
import { AudioFileMessages } from '@tonearm/contract';

/** Why a file's audio is cut short, when it is (the import's reason, the upload's 415 message). */
export const TRUNCATED = AudioFileMessages.truncated;

/** How long one decode may take: it decodes one second, so only a pathological file or machine gets near it. */
const DECODE_TIMEOUT_MS = 30_000;

/**
 * The decode and end-of-audio check of the upload and the import (one check for both): the format checks read headers
 * only, and a header may lie (a WAV with 0 channels, a chunk longer than the file) or promise more than the file holds
 * (a copy or a download cut short). Answers the reason to refuse the file, or null:
 * - a WAV whose data chunk says it is longer than the file: TRUNCATED (with or without ffmpeg);
 * - with ffmpeg, audio decoded from the file's last second proves that it opens, decodes and ends where it says; when
 *   none comes out, one second from the start tells a file ffmpeg cannot decode at all (`unreadable`) from one whose
 *   audio stops short (TRUNCATED; a WAV is played as far as it goes, as before).
 * Costs one short ffmpeg run for a good file, none for a WAV of plain samples whose header holds together (wavVerdict);
 * without ffmpeg only the WAV check runs.
 */
export class AudioEndCheck {
  constructor(private readonly ffmpeg: string | null) {}

  async reasonAgainst(file: string, ext: string): Promise<string | null> {
    const wav = ext === 'wav' ? await wavVerdict(file) : 'ask';
    if (wav === 'short') return TRUNCATED;
    if (wav === 'sound' || this.ffmpeg === null) return null;
    if ((await decodedBytes(this.ffmpeg, file, 'last second')) > 0) return null;
    if ((await decodedBytes(this.ffmpeg, file, 'first second')) === 0) return AudioFileMessages.unreadable;
    return ext === 'wav' ? null : TRUNCATED;
  }
}

/**
 * The bytes of 8 kHz mono PCM that ffmpeg decodes from one second of the file (0 when none, or when ffmpeg fails or
 * times out on it). Rejects only when ffmpeg cannot be started at all: that is the server's fault, not the file's.
 */
function decodedBytes(ffmpeg: string, file: string, part: 'first second' | 'last second'): Promise<number> {
  const input = part === 'last second' ? ['-sseof', '-1', '-i', file] : ['-i', file, '-t', '1'];
  const args = ['-v', 'error', '-nostdin', ...input, '-map', '0:a:0', '-ac', '1', '-ar', '8000', '-f', 's16le', '-'];
  return new Promise((resolve, reject) => {
    const options = { encoding: 'buffer', maxBuffer: 1024 * 1024, timeout: DECODE_TIMEOUT_MS } as const;
    execFile(ffmpeg, args, options, (error: ExecFileException | null, stdout: Buffer) => {
      if (error?.syscall?.startsWith('spawn') === true) reject(new Error(error.message, { cause: error }));
      else resolve(error === null ? stdout.length : 0);
    });
  });
}

/** What a WAV's header alone says: cut short, plainly sound (no decode needed), or a question for ffmpeg. */
type WavVerdict = 'short' | 'sound' | 'ask';

/** Plain sample formats every decoder reads, with the sample sizes each comes in: PCM, float, A-law, mu-law. */
const PLAIN_FORMATS: ReadonlyMap<number, readonly number[]> = new Map([
  [1, [8, 16, 24, 32]],
  [3, [32, 64]],
  [6, [8]],
  [7, [8]],
]);
const EXTENSIBLE = 0xfffe;

/** Whether a `fmt ` chunk (its body) describes plain samples with consistent numbers. */
function isPlainFormat(fmt: Buffer): boolean {
  if (fmt.length < 16) return false;
  const tag = fmt.readUInt16LE(0);
  const format = tag === EXTENSIBLE && fmt.length >= 26 ? fmt.readUInt16LE(24) : tag;
  const channels = fmt.readUInt16LE(2);
  const rate = fmt.readUInt32LE(4);
  const blockAlign = fmt.readUInt16LE(12);
  const bits = fmt.readUInt16LE(14);
  const sizes = PLAIN_FORMATS.get(format);
  return (
    sizes !== undefined &&
    sizes.includes(bits) &&
    channels >= 1 &&
    channels <= 64 &&
    rate >= 1 &&
    rate <= 768_000 &&
    blockAlign === (channels * bits) / 8
  );
}

/**
 * Reads a RIFF/WAVE file's chunks up to its data: `short` when the data chunk says it is longer than the file;
 * `sound` when every chunk before it lies within the file, the format is plain (isPlainFormat) and there is data, so
 * decoding it would only repeat what the header shows (the import of a WAV library spawns no ffmpeg per file); `ask`
 * for anything else (a header that lies, an unusual codec), which ffmpeg then decodes.
 */
async function wavVerdict(file: string): Promise<WavVerdict> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(Math.min(size, 64 * 1024));
    await handle.read(head, 0, head.length, 0);
    if (head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE') return 'ask';
    let plain = false;
    for (let offset = 12; offset + 8 <= head.length;) {
      const id = head.toString('latin1', offset, offset + 4);
      const length = head.readUInt32LE(offset + 4);
      const end = offset + 8 + length;
      if (id === 'data') return end > size ? 'short' : plain && length > 0 ? 'sound' : 'ask';
      if (end > size) return 'ask';
      if (id === 'fmt ') plain = end <= head.length && isPlainFormat(head.subarray(offset + 8, end));
      offset = end + (length % 2);
    }
    return 'ask';
  } finally {
    await handle.close();
  }
}

/** The ffmpeg to use, or null when `command` cannot be run (checked once). */
export function findFfmpeg(command: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(command, ['-version'], { timeout: 10_000 }, (error) => {
      resolve(error === null ? command : null);
    });
  });
}
