import { execFile } from 'node:child_process';
import { open } from 'node:fs/promises';

/** Why a file's audio is cut short, when it is. */
export const TRUNCATED = 'the file is truncated or corrupt: its audio ends before its header says it does';

/**
 * The end-of-audio check of the import: the upload checks read headers only, and a file cut short in a copy (or a
 * download that stopped) keeps headers that promise more than it holds. With ffmpeg, the last second is decoded: none
 * comes out of a truncated MP3, FLAC, Ogg or M4A. A WAV's data chunk is compared with the file's size (ffmpeg plays
 * what there is). Without ffmpeg only the WAV check runs.
 */
export class AudioEndCheck {
  constructor(private readonly ffmpeg: string | null) {}

  async reasonAgainst(file: string, ext: string): Promise<string | null> {
    if (ext === 'wav' && (await wavIsShort(file))) return TRUNCATED;
    if (this.ffmpeg === null || ext === 'wav') return null;
    return (await decodedTailBytes(this.ffmpeg, file)) > 0 ? null : TRUNCATED;
  }
}

/** The bytes of 8 kHz mono PCM that ffmpeg decodes from the file's last second (0 when none, or on an error). */
function decodedTailBytes(ffmpeg: string, file: string): Promise<number> {
  const args = [
    '-v',
    'error',
    '-sseof',
    '-1',
    '-i',
    file,
    '-map',
    '0:a:0',
    '-ac',
    '1',
    '-ar',
    '8000',
    '-f',
    's16le',
    '-',
  ];
  return new Promise((resolve) => {
    execFile(ffmpeg, args, { encoding: 'buffer', maxBuffer: 1024 * 1024, timeout: 30_000 }, (error, stdout) => {
      resolve(error === null ? stdout.length : 0);
    });
  });
}

/** True when a RIFF/WAVE file's data chunk says it is longer than the file. */
async function wavIsShort(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(Math.min(size, 64 * 1024));
    await handle.read(head, 0, head.length, 0);
    if (head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE') return false;
    for (let offset = 12; offset + 8 <= head.length;) {
      const id = head.toString('latin1', offset, offset + 4);
      const length = head.readUInt32LE(offset + 4);
      if (id === 'data') return offset + 8 + length > size;
      offset += 8 + length + (length % 2);
    }
    return false;
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
