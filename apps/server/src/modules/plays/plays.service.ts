import { PlaylistMessages, RECENT_SONGS_MAX, type RecentPlay } from '@tonearm/contract';
import { notFound } from '../../http/errors.js';
import type { PlaysRepository } from './plays.repository.js';

/**
 * Plays kept per user. Enough history for the recent list (10 distinct songs) even after long repeats of one song,
 * while keeping the per-user query bounded however long someone listens.
 */
export const PLAY_HISTORY_MAX = 1000;

/**
 * Server-side play history, so the recent list (SPEC §4: most recent first, no duplicates, at most 10) follows a user
 * from one device to another.
 */
export class PlaysService {
  constructor(
    private readonly plays: PlaysRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** A play now, or at `playedAt` when the client says when it happened (a Subsonic scrobble); never in the future. */
  async record(
    listener: { id: number; hiddenLibraries?: readonly number[] },
    songId: number,
    playedAt?: Date,
  ): Promise<void> {
    const userId = listener.id;
    // A song of a library hidden from the listener does not exist for them.
    if (!(await this.plays.songExists(songId, listener.hiddenLibraries))) throw notFound(PlaylistMessages.songNotFound);
    const now = this.now();
    const at = playedAt !== undefined && playedAt < now ? playedAt : now;
    await this.plays.record(userId, songId, at.toISOString(), PLAY_HISTORY_MAX);
  }

  recent(userId: number): Promise<RecentPlay[]> {
    return this.plays.recent(userId, RECENT_SONGS_MAX);
  }
}
