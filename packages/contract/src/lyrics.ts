import { z } from 'zod';

/** Where a song's lyrics came from: the audio file's tags, a `.lrc`/`.txt` file beside it, or an administrator. */
export const LYRICS_SOURCES = ['embedded', 'sidecar', 'uploaded'] as const;
export type LyricsSource = (typeof LYRICS_SOURCES)[number];

/** A word of enhanced LRC: when it starts (ms, as written: the offset is not applied) and its text. */
export const SongLyricsWord = z.object({ startMs: z.number().int().nonnegative(), text: z.string() });

/**
 * One line: `startMs` for synced lyrics only; `words` when the line has word times. (The text first: JSON answers
 * write the required fields before the optional ones.)
 */
export const SongLyricsLine = z.object({
  text: z.string(),
  startMs: z.number().int().nonnegative().optional(),
  words: z.array(SongLyricsWord).optional(),
});
export type SongLyricsLine = z.infer<typeof SongLyricsLine>;

/**
 * A song's lyrics (GET /api/songs/:id/lyrics). Times are as written; `offsetMs` is LRC's `[offset:]` (positive: every
 * line shows sooner), so a line is shown from `startMs - offsetMs`. `lang` is an ISO 639 code, null when unknown.
 * Plain lyrics keep blank lines ('') between stanzas.
 */
export const SongLyrics = z.object({
  synced: z.boolean(),
  lang: z.string().nullable(),
  offsetMs: z.number().int(),
  lines: z.array(SongLyricsLine),
  source: z.enum(LYRICS_SOURCES),
});
export type SongLyrics = z.infer<typeof SongLyrics>;

/** The answer of GET and PUT /api/songs/:id/lyrics: the lyrics, or null when the song has none. */
export const SongLyricsAnswer = z.object({ lyrics: SongLyrics.nullable() });
export type SongLyricsAnswer = z.infer<typeof SongLyricsAnswer>;

/**
 * PUT /api/songs/:id/lyrics: LRC or plain text, pasted (`text`) or as a file (`lyricsFile`, multipart); the file wins
 * when both are sent. JSON takes `{ "text": … }`.
 */
export const LyricsFormFields = z.object({ text: z.string().optional() });
export type LyricsFormFields = z.infer<typeof LyricsFormFields>;
