import { z } from 'zod';

/** One entry of the caller's recent list (GET /api/plays/recent): distinct songs, most recent first, at most 10. */
export const RecentPlay = z.object({ songId: z.number().int(), playedAt: z.string() });
export type RecentPlay = z.infer<typeof RecentPlay>;
export const RecentPlaysResponse = z.array(RecentPlay);
export type RecentPlaysResponse = z.infer<typeof RecentPlaysResponse>;

/** Issue 28: a listen counts once half the song, or LISTEN_COUNTS_AFTER_MS, was heard (Last.fm's and ListenBrainz's rule). */
export const LISTEN_COUNTS_AFTER_MS = 4 * 60 * 1000;
/** Songs this short never count (the same rule). */
export const LISTEN_MIN_SONG_MS = 30 * 1000;

/** When a song of `durationMs` counts as listened; null when it never does (too short). */
export function listenThresholdMs(durationMs: number | null): number | null {
  if (durationMs === null) return LISTEN_COUNTS_AFTER_MS;
  if (durationMs <= LISTEN_MIN_SONG_MS) return null;
  return Math.min(Math.floor(durationMs / 2), LISTEN_COUNTS_AFTER_MS);
}

export const ListenMessages = {
  tooShort: 'A listen counts once half the song (or 4 minutes) was heard, and songs of 30 seconds or less never count',
  tooLong: 'More was heard than the song holds',
} as const;

/**
 * POST /api/listens: a play of the web player that counted, reported once when it ends (the next song, a stop, the
 * page closed), with how much of it was heard (seeking over part of it does not count) and when it began.
 */
export const ListenReport = z.object({
  songId: z.number().int().positive(),
  startedAt: z.iso.datetime({ offset: true }),
  listenedMs: z
    .number()
    .int()
    .min(0)
    .max(24 * 60 * 60 * 1000),
});
export type ListenReport = z.infer<typeof ListenReport>;
