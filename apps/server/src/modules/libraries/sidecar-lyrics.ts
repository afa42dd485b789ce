import type { Stats } from 'node:fs';
import path from 'node:path';
import { LYRICS_MAX_BYTES, LyricsMessages } from '@tonearm/contract';
import { decodeLyricsFile, lyricsFromText, type LyricsRead } from '../../media/file-lyrics.js';
import type { MusicFolder } from './music-folder.js';

/*
 * Lyrics files beside the audio in a music folder (issue 27): `<name>.lrc`, else `<name>.txt`, for `<name>.<audio
 * extension>` (the extension in any case). They are found and read under the music folder's rule like the audio: a
 * link out of the folder, a hidden file or a FIFO is never opened.
 */

/** Lyrics file extensions, by preference. */
const SIDECAR_EXTENSIONS = ['lrc', 'txt'];

/** Whether a file name is a lyrics file's (it still needs an audio file of the same name beside it). */
export function isSidecarName(name: string): boolean {
  return SIDECAR_EXTENSIONS.includes(path.extname(name).slice(1).toLowerCase());
}

/** A path without its extension: what an audio file and its lyrics file share. */
function stem(file: string): string {
  return file.slice(0, file.length - path.extname(file).length);
}

function rank(file: string): number {
  return SIDECAR_EXTENSIONS.indexOf(path.extname(file).slice(1).toLowerCase());
}

/** The lyrics files a walk found, by the audio file they go with: `sidecarOf(audio)` answers the preferred one. */
export class Sidecars {
  private readonly byStem = new Map<string, string>();

  constructor(files: Iterable<string>) {
    for (const file of files) {
      const known = this.byStem.get(stem(file));
      if (known === undefined || rank(file) < rank(known) || (rank(file) === rank(known) && file < known)) {
        this.byStem.set(stem(file), file);
      }
    }
  }

  sidecarOf(audio: string): string | null {
    return this.byStem.get(stem(audio)) ?? null;
  }

  /** Every lyrics file some audio file goes with. */
  usedBy(audio: readonly string[]): string[] {
    return audio.flatMap((file) => {
      const sidecar = this.sidecarOf(file);
      return sidecar === null ? [] : [sidecar];
    });
  }
}

/** What the scan remembers of the lyrics file a song was read with: its name, size and modification time. */
export function sidecarState(file: string, stats: Pick<Stats, 'size' | 'mtimeMs'>): string {
  return `${path.basename(file)}:${String(stats.size)}:${String(Math.trunc(stats.mtimeMs))}`;
}

/** A lyrics file as read: its state (sidecarState) and what its text gave. */
export interface SidecarRead {
  state: string;
  read: LyricsRead;
}

/**
 * Reads the lyrics file `file` under the folder's rule; null when it cannot be read (gone, or the rule skips it). A
 * file past LYRICS_MAX_BYTES is not read past its size.
 */
export async function readSidecar(folder: MusicFolder, file: string): Promise<SidecarRead | null> {
  const opened = await folder
    .withFile(file, async (handle): Promise<SidecarRead> => {
      const stats = await handle.stat();
      const state = sidecarState(file, stats);
      if (stats.size > LYRICS_MAX_BYTES) {
        return { state, read: { problem: { kind: 'tooLarge', message: LyricsMessages.tooLarge } } };
      }
      const decoded = decodeLyricsFile(await handle.readFile());
      return { state, read: 'problem' in decoded ? decoded : lyricsFromText(decoded.text, 'sidecar') };
    })
    .catch(() => null);
  return opened === null || 'skip' in opened ? null : opened.value;
}

/**
 * The lyrics file beside `audio` found by name (the import, which walks for audio only): `<name>.lrc` or `.LRC`, then
 * `.txt` or `.TXT`, when the folder's rule allows reading it.
 */
export async function findSidecar(folder: MusicFolder, audio: string): Promise<string | null> {
  for (const ext of SIDECAR_EXTENSIONS) {
    for (const candidate of [`${stem(audio)}.${ext}`, `${stem(audio)}.${ext.toUpperCase()}`]) {
      const target = await folder.resolve(candidate).catch(() => null);
      if (target?.kind === 'file') return candidate;
    }
  }
  return null;
}
