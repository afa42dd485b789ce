import { z } from 'zod';
import { Song } from './songs.js';

/** Most songs a radio answers at once, and how much history and seed a request may carry. */
export const RADIO_BATCH_MAX = 50;
export const RADIO_HISTORY_MAX = 100;
export const RADIO_SEED_MAX = 500;

const SongId = z.number().int().positive();

/**
 * The next songs of a radio (issue 28): the seed's songs (a song, or an album's, artist's or playlist's) and what was
 * already played or queued, oldest first; the client asks again with the longer history for more.
 */
export const RadioRequest = z.object({
  seedIds: z.array(SongId).min(1).max(RADIO_SEED_MAX),
  historyIds: z.array(SongId).max(RADIO_HISTORY_MAX).default([]),
  count: z.number().int().min(1).max(RADIO_BATCH_MAX).default(20),
});
export type RadioRequest = z.infer<typeof RadioRequest>;

/** The songs to queue next, in order; fewer than asked (or none) when the rules leave no more. */
/** `songs`: the same songs, as the song lists answer them (for the player's queue). */
export const RadioResponse = z.object({ songIds: z.array(z.number().int()), songs: z.array(Song) });
export type RadioResponse = z.infer<typeof RadioResponse>;
