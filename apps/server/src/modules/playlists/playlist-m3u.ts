import { UNKNOWN_ARTIST } from '@tonearm/contract';
import { cleanFilename, downloadFilename } from '../downloads/download-filename.js';

/*
 * A playlist written as M3U8 (UTF-8 M3U): `#EXTM3U`, then for each song `#EXTINF:<seconds>,<artist> - <title>` and
 * one line that says which file it is:
 * - a song of a library: its file's path relative to that library's folder (`/` between parts), so the file dropped
 *   into the library's folder reads back as the same songs (a path starting with `#` or a space is written `./…`, which
 *   a reader would otherwise take for a comment or trim);
 * - a song held in the blob store: `Artist - Title.ext`, the name its download gets. It names the song for a person or
 *   another player's library; no URL is written, since any URL that plays would have to carry a session.
 */

/** One song of an exported playlist, in order. */
export interface M3uEntry {
  name: string;
  artistName: string | null;
  durationMs: number | null;
  audioKey: string;
  /** The path of its file relative to its library's folder; null for a song held in the blob store. */
  libraryPath: string | null;
}

/** Text on one line: line breaks (which would end the entry) become spaces. */
function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').trim();
}

function locationOf(entry: M3uEntry): string {
  if (entry.libraryPath === null) return downloadFilename(entry.artistName, entry.name, entry.audioKey);
  return /^[#\s]/.test(entry.libraryPath) ? `./${entry.libraryPath}` : entry.libraryPath;
}

/** The M3U8 text of a playlist's songs (see the top of this file); lines end with `\n`. */
export function writeM3u8(entries: readonly M3uEntry[]): string {
  const lines = ['#EXTM3U'];
  for (const entry of entries) {
    // A path holding a line break cannot be written as an M3U line: such a song is left out.
    if (entry.libraryPath !== null && /[\r\n]/.test(entry.libraryPath)) continue;
    const seconds = entry.durationMs === null ? -1 : Math.round(entry.durationMs / 1000);
    const artist = oneLine(entry.artistName ?? '') || UNKNOWN_ARTIST;
    lines.push(`#EXTINF:${String(seconds)},${artist} - ${oneLine(entry.name)}`, locationOf(entry));
  }
  return `${lines.join('\n')}\n`;
}

/** The exported file's name: the playlist's name made safe as a file name, `.m3u8`. */
export function m3u8Filename(playlistName: string): string {
  const stem = cleanFilename(playlistName)
    .slice(0, 180)
    .replace(/[\uD800-\uDBFF]$/, '')
    .trim();
  return `${stem || 'playlist'}.m3u8`;
}
