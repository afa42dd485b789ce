import { queryOptions } from '@tanstack/react-query';
import type { SongLyrics, SongLyricsLine } from '@tonearm/contract';
import { api } from './api.js';
import { lyricsKeys } from './query-keys.js';

/** GET /api/songs/{id}/lyrics: what the player's lyrics view and the song form read (null: the song has none). */
export function lyricsQuery(songId: number) {
  return queryOptions({
    queryKey: lyricsKeys.song(songId),
    queryFn: async ({ signal }) => (await api.lyrics.get({ id: songId }, { signal })).lyrics,
    staleTime: 5 * 60_000,
  });
}

/** When a line is shown, in ms of the song: its time as written, moved by LRC's offset (positive: sooner). */
export function shownAtMs(line: SongLyricsLine, offsetMs: number): number {
  return Math.max(0, (line.startMs ?? 0) - offsetMs);
}

/**
 * The line shown at `ms` into the song: the last whose time has come (-1 before the first). The lines are sorted by
 * time (the server sorts them), so this is a binary search: cheap enough to run on every animation frame.
 */
export function lineAt(lyrics: Pick<SongLyrics, 'lines' | 'offsetMs'>, ms: number): number {
  let low = 0;
  let high = lyrics.lines.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const line = lyrics.lines[middle];
    if (line !== undefined && shownAtMs(line, lyrics.offsetMs) <= ms) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}
