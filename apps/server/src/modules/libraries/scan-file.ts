import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { IMAGE_MAX_BYTES } from '@tonearm/contract';
import { FileWindows } from './file-windows.js';
import { MusicFolder } from './music-folder.js';
import { readWindowTags, type FileRead } from './read-tags.js';
import { readSidecar, type SidecarRead } from './sidecar-lyrics.js';

/** How many bytes at the start and at the end of a file go into its fingerprint (with its size). */
const FINGERPRINT_HEAD = 16 * 1024;
const FINGERPRINT_TAIL = 64 * 1024;

/**
 * What a scan reads of one new or changed file: its fingerprint, and its tags (their picture left out: only its image
 * key is kept) and length, or null when they could not be parsed (a moved song is still recognised by its
 * fingerprint); the lyrics file beside it, when there is one; or why it could not be read at all. Plain data: it
 * crosses from a scan thread to the main one.
 */
export type ScanFileRead = (AudioRead & { sidecar: SidecarRead | null }) | { problem: string };

/** What is read of the audio file itself. */
interface AudioRead {
  fingerprint: string;
  read: FileRead | null;
  embeddedCoverKey: string | null;
}

/** Why a file could not be read (whatever the reason inside: a read error, no audio, no tags to parse). */
export const UNREADABLE = 'cannot be read, or is not audio Tonearm can read the tags of';

/** The image key of a picture's bytes (`<sha256>.<ext>` by its magic bytes), or null when it is no JPEG, PNG or WebP. */
export function imageKeyOf(bytes: Uint8Array): string | null {
  const ext = imageExtension(bytes);
  if (ext === null) return null;
  return `${createHash('sha256').update(bytes).digest('hex')}.${ext}`;
}

function imageExtension(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'png';
  const riff = Buffer.from(bytes.subarray(0, 12)).toString('latin1');
  if (riff.startsWith('RIFF') && riff.slice(8, 12) === 'WEBP') return 'webp';
  return null;
}

/**
 * What a moved file is recognised by: its size and a hash of its first 16 KiB and last 64 KiB (the whole file when it
 * is smaller). Tags sit at the start (ID3v2, FLAC and Ogg comments) or the end (an M4A's moov, ID3v1, APE), so two files
 * that share their audio but not their tags differ; a file moved or renamed keeps every byte. Read from the windows the
 * tags are then parsed from (their head and tail are these bytes).
 */
async function fingerprintOf(windows: FileWindows, size: number): Promise<string> {
  const hash = createHash('sha256');
  const headLength = Math.min(size, FINGERPRINT_HEAD);
  hash.update(await windows.bytes(0, headLength));
  const tailLength = Math.min(size - headLength, FINGERPRINT_TAIL);
  if (tailLength > 0) hash.update(await windows.bytes(size - tailLength, tailLength));
  return `${String(size)}:${hash.digest('hex').slice(0, 40)}`;
}

/**
 * Reads the file at `abs` (of `size` bytes when it was stat-ed) under the music folder's rule: checked again right
 * before it is opened (a link out of the folder, a loop, anything but a regular file is refused), opened once without
 * following a last link or waiting on a FIFO; its head and tail windows are both the fingerprint's bytes and where
 * most tags are. `sidecar`, the lyrics file the walk found beside it, is read under the same rule.
 */
export async function readScanFile(
  folder: MusicFolder,
  abs: string,
  size: number,
  sidecar: string | null = null,
): Promise<ScanFileRead> {
  const read = await readAudioFile(folder, abs, size);
  if ('problem' in read) return read;
  return { ...read, sidecar: sidecar === null ? null : await readSidecar(folder, sidecar) };
}

async function readAudioFile(folder: MusicFolder, abs: string, size: number): Promise<AudioRead | { problem: string }> {
  const target = await folder.resolve(abs).catch(() => null);
  if (target?.kind !== 'file') {
    return { problem: target?.kind === 'skipped' ? target.reason : 'it changed while it was being read' };
  }
  try {
    const handle = await open(target.real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      const windows = new FileWindows(handle, size);
      await windows.preload();
      const fingerprint = await fingerprintOf(windows, size);
      const read = await readWindowTags(windows, target.real).catch(() => null);
      if (read === null) return { fingerprint, read: null, embeddedCoverKey: null };
      const picture = read.tags.picture;
      const embeddedCoverKey =
        picture === null || picture.data.length > IMAGE_MAX_BYTES ? null : imageKeyOf(picture.data);
      return { fingerprint, read: { ...read, tags: { ...read.tags, picture: null } }, embeddedCoverKey };
    } finally {
      await handle.close();
    }
  } catch {
    return { problem: UNREADABLE };
  }
}

/** MusicFolder.at, once per folder (a scan thread reads for whichever library is being scanned). */
export function foldersByRoot(): (root: string) => Promise<MusicFolder> {
  const folders = new Map<string, Promise<MusicFolder>>();
  return (root) => {
    let folder = folders.get(root);
    if (folder === undefined) {
      folder = MusicFolder.at(root);
      folders.set(root, folder);
    }
    return folder;
  };
}
