/**
 * Real, tagged audio in every format the import reads, made at test time with ffmpeg (Debian's `ffmpeg`, which
 * .ci/run installs): no binary test files in the repo. Without ffmpeg these helpers throw, so a test that needs them
 * fails and says why rather than passing by skipping.
 */
import { execFile, execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';

/** Throws, naming the package to install, when ffmpeg cannot be run. */
export function requireFfmpeg(): void {
  try {
    execFileSync(FFMPEG, ['-version'], { stdio: 'ignore' });
  } catch {
    throw new Error(`These tests need ffmpeg (${FFMPEG}); install it with: apt-get install ffmpeg`);
  }
}

export type AudioFormat = 'mp3' | 'flac' | 'ogg' | 'opus' | 'aac' | 'alac' | 'wav';

export const AUDIO_FORMATS: readonly AudioFormat[] = ['mp3', 'flac', 'ogg', 'opus', 'aac', 'alac', 'wav'];

/** The file extension and ffmpeg options of each format. */
const ENCODINGS: Record<AudioFormat, { ext: string; args: string[]; embedsPicture: boolean }> = {
  mp3: { ext: 'mp3', args: ['-c:a', 'libmp3lame', '-b:a', '128k', '-id3v2_version', '3'], embedsPicture: true },
  flac: { ext: 'flac', args: ['-c:a', 'flac'], embedsPicture: true },
  ogg: { ext: 'ogg', args: ['-c:a', 'libvorbis', '-q:a', '2'], embedsPicture: false },
  opus: { ext: 'opus', args: ['-c:a', 'libopus', '-b:a', '64k'], embedsPicture: false },
  aac: { ext: 'm4a', args: ['-c:a', 'aac', '-b:a', '96k'], embedsPicture: true },
  alac: { ext: 'm4a', args: ['-c:a', 'alac'], embedsPicture: true },
  wav: { ext: 'wav', args: ['-c:a', 'pcm_s16le', '-write_id3v2', '1'], embedsPicture: false },
};

export function extensionOf(format: AudioFormat): string {
  return ENCODINGS[format].ext;
}

/** Whether ffmpeg can embed a picture in this container (Ogg and WAV need a folder cover instead). */
export function embedsPicture(format: AudioFormat): boolean {
  return ENCODINGS[format].embedsPicture;
}

export interface AudioTags {
  title?: string;
  artist?: string;
  album?: string;
  albumArtist?: string;
  track?: string;
  disc?: string;
  date?: string;
  genre?: string;
  /** ReplayGain, written as ffmpeg writes any other tag (REPLAYGAIN_TRACK_GAIN "-6.50 dB", …). */
  replayGain?: { trackDb: number; trackPeak: number; albumDb: number; albumPeak: number };
  /** Any other tag, by ffmpeg's name for it (composer, compilation…) or as the container writes it (ARTISTS). */
  extra?: Readonly<Record<string, string>>;
}

function metadataArgs(tags: AudioTags): string[] {
  const pairs: [string, string | undefined][] = [
    ['title', tags.title],
    ['artist', tags.artist],
    ['album', tags.album],
    ['album_artist', tags.albumArtist],
    ['track', tags.track],
    ['disc', tags.disc],
    ['date', tags.date],
    ['genre', tags.genre],
  ];
  const gain = tags.replayGain;
  if (gain !== undefined) {
    pairs.push(
      ['REPLAYGAIN_TRACK_GAIN', `${gain.trackDb.toFixed(2)} dB`],
      ['REPLAYGAIN_TRACK_PEAK', gain.trackPeak.toFixed(6)],
      ['REPLAYGAIN_ALBUM_GAIN', `${gain.albumDb.toFixed(2)} dB`],
      ['REPLAYGAIN_ALBUM_PEAK', gain.albumPeak.toFixed(6)],
    );
  }
  pairs.push(...Object.entries(tags.extra ?? {}));
  return pairs.flatMap(([key, value]) => (value === undefined ? [] : ['-metadata', `${key}=${value}`]));
}

export interface EncodeOptions {
  tags?: AudioTags;
  /** A picture file to embed (formats that can). */
  picture?: string;
  seconds?: number;
  /** Distinct tones give distinct bytes (songs are deduplicated by their audio's hash). */
  frequency?: number;
}

/** Encodes a sine tone into `file` in `format`, with the tags (and embedded picture) given. */
export async function encodeAudio(file: string, format: AudioFormat, options: EncodeOptions = {}): Promise<void> {
  const { seconds = 2, frequency = 440 } = options;
  const encoding = ENCODINGS[format];
  const inputs = ['-f', 'lavfi', '-i', `sine=frequency=${frequency}:duration=${seconds}`];
  const picture = options.picture !== undefined && encoding.embedsPicture ? options.picture : undefined;
  const pictureArgs =
    picture === undefined
      ? []
      : ['-i', picture, '-map', '0', '-map', '1', '-c:v', 'copy', '-disposition:v', 'attached_pic'];
  await run(FFMPEG, [
    '-v',
    'error',
    '-y',
    ...inputs,
    ...pictureArgs,
    ...encoding.args,
    ...metadataArgs(options.tags ?? {}),
    file,
  ]);
}

/** A solid-colour PNG of `size` pixels square, made by ffmpeg. */
export async function encodePicture(file: string, size = 64, color = 'red'): Promise<void> {
  await run(FFMPEG, [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `color=c=${color}:s=${size}x${size}:d=1`,
    '-frames:v',
    '1',
    file,
  ]);
}

/**
 * An MP3 whose ID3v2.3 title and artist frames are ISO-8859-1 (encoding byte 0), as older taggers wrote them; ffmpeg
 * itself writes non-ASCII text as UTF-16, so the frames are put in front of an untagged MP3 here.
 */
export async function latin1Mp3(file: string, untaggedMp3: Buffer, title: string, artist: string): Promise<void> {
  const frame = (id: string, text: string) => {
    const body = Buffer.concat([Buffer.from([0]), Buffer.from(text, 'latin1')]);
    const header = Buffer.alloc(10);
    header.write(id, 0, 'latin1');
    header.writeUInt32BE(body.length, 4);
    return Buffer.concat([header, body]);
  };
  const frames = Buffer.concat([frame('TIT2', title), frame('TPE1', artist), frame('TCON', 'Rock')]);
  const size = frames.length;
  const header = Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0]);
  // A syncsafe size: seven bits a byte.
  header[6] = (size >> 21) & 0x7f;
  header[7] = (size >> 14) & 0x7f;
  header[8] = (size >> 7) & 0x7f;
  header[9] = size & 0x7f;
  await writeFile(file, Buffer.concat([header, frames, untaggedMp3]));
}
