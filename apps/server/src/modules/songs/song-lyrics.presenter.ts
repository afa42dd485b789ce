import type { SongLyricsAnswer } from '@tonearm/contract';
import type { StoredLyrics } from './song-lyrics.repository.js';

/** Stored lyrics as the API answers them (SongLyricsAnswer): null when the song has none. */
export function toSongLyricsJson(lyrics: StoredLyrics | null): SongLyricsAnswer {
  if (lyrics === null) return { lyrics: null };
  const { synced, lang, offsetMs, lines, source } = lyrics;
  return { lyrics: { synced, lang, offsetMs, lines, source } };
}
