import {
  ListenMessages,
  listenThresholdMs,
  PlaylistMessages,
  RECENT_SONGS_MAX,
  type ListenReport,
  type RecentPlay,
} from '@tonearm/contract';
import { badRequest, notFound } from '../../http/errors.js';
import type { PlaysRepository } from './plays.repository.js';

/**
 * Plays kept per user. Enough history for the recent list (10 distinct songs) even after long repeats of one song,
 * while keeping the per-user query bounded however long someone listens.
 */
export const PLAY_HISTORY_MAX = 1000;

/** What the web player's own clock may be off by in a listen report. */
const LISTEN_LEEWAY_MS = 1500;

/**
 * Server-side play history, so the recent list (SPEC §4: most recent first, no duplicates, at most 10) follows a user
 * from one device to another.
 */
/** A listen that counted (a `listens` row), as observers are told of it. */
export interface CountedListen {
  id: number;
  userId: number;
  songId: number;
  playedAt: string;
  listenedMs: number;
}

export class PlaysService {
  private readonly listenObservers: ((listen: CountedListen) => Promise<void>)[] = [];
  private readonly startObservers: ((userId: number, songId: number) => Promise<void>)[] = [];

  constructor(
    private readonly plays: PlaysRepository,
    private readonly now: () => Date = () => new Date(),
    /** Where an observer's failure is told: it never fails the play or the listen, which are already stored. */
    private readonly warn: (message: string) => void = () => undefined,
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

  /** Told of every listen that counted, after it is stored (scrobbling out). */
  onListen(observer: (listen: CountedListen) => Promise<void>): void {
    this.listenObservers.push(observer);
  }

  /** Told of every song a listener starts (a web play, a Subsonic app's now playing). */
  onStart(observer: (userId: number, songId: number) => Promise<void>): void {
    this.startObservers.push(observer);
  }

  /** A song started now (the web player's play, a Subsonic now playing): observers are told, failures only logged. */
  async started(userId: number, songId: number): Promise<void> {
    await Promise.all(this.startObservers.map((observer) => observer(userId, songId).catch(this.told('a start'))));
  }

  /**
   * A listen that counted, from a Subsonic app's scrobble (submission): the app applies the usual rule (half the song
   * or 4 minutes), so the whole song's length is taken as heard. Stored in `listens`, then observers are told.
   */
  async counted(
    listener: { id: number },
    songId: number,
    playedAt: Date,
    heardMs: number,
    source: 'web' | 'subsonic',
    client: string | null,
  ): Promise<void> {
    const at = playedAt < this.now() ? playedAt : this.now();
    const listen = { userId: listener.id, songId, playedAt: at.toISOString(), listenedMs: Math.max(0, heardMs) };
    const id = await this.plays.recordListen({
      user_id: listen.userId,
      song_id: songId,
      played_at: listen.playedAt,
      listened_ms: listen.listenedMs,
      source,
      client,
    });
    // Reported before (an app sending its scrobble again): counted once, so nobody is told twice.
    if (id === null) return;
    await Promise.all(this.listenObservers.map((observer) => observer({ id, ...listen }).catch(this.told('a listen'))));
  }

  /**
   * A web play that counted (POST /api/listens): the song must be one the listener sees (404), enough of it heard by
   * the rule (listenThresholdMs, a second's leeway for the player's clock) and no more than it holds (400).
   */
  async listenedOnWeb(
    listener: { id: number; hiddenLibraries: readonly number[] },
    report: ListenReport,
  ): Promise<void> {
    const song = await this.plays.songLength(report.songId, listener.hiddenLibraries);
    if (song === undefined) throw notFound(PlaylistMessages.songNotFound);
    const threshold = listenThresholdMs(song.duration_ms);
    if (threshold === null || report.listenedMs < threshold - LISTEN_LEEWAY_MS) {
      throw badRequest(ListenMessages.tooShort, 'listenedMs');
    }
    if (song.duration_ms !== null && report.listenedMs > song.duration_ms + LISTEN_LEEWAY_MS) {
      throw badRequest(ListenMessages.tooLong, 'listenedMs');
    }
    await this.counted(listener, report.songId, new Date(report.startedAt), report.listenedMs, 'web', null);
  }

  private told(what: string): (error: unknown) => void {
    return (error) => {
      this.warn(`Plays: an observer of ${what} failed: ${String(error)}`);
    };
  }

  recent(userId: number): Promise<RecentPlay[]> {
    return this.plays.recent(userId, RECENT_SONGS_MAX);
  }
}
