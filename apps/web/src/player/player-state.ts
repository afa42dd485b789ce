import type { Song } from '@tonearm/contract';
import type { SongSource } from '../lib/song-sources.js';
import type { Advance, RepeatMode } from './next-song.js';
import { WELCOME_SONG } from './welcome-song.js';

export type { Advance, RepeatMode };
export const REPEAT_MODES: readonly RepeatMode[] = ['off', 'all', 'one'];

/** A song chosen from a paged list: the songs the list has loaded, and where the rest of the list comes from. */
export interface QueueStart {
  /** A catalogue source in shuffle order carries the seed its pages were fetched with, so the cursor stays valid. */
  source: SongSource;
  /** The songs loaded so far, in list order, from the list's first song. */
  songs: readonly Song[];
  /** The cursor of the list's next page (null when every song is loaded). */
  nextCursor: string | null;
  /** The chosen song's place in `songs`. */
  index: number;
}

/** Where the rest of the queue comes from: a paged source, and how far the queue has loaded it. */
export interface QueueFeed {
  readonly source: SongSource;
  /** True while a page is still to come; `cursor` is then the page's cursor (null: the first page). */
  readonly more: boolean;
  readonly cursor: string | null;
  /**
   * The queue no longer holds the source from its first song (played songs were let go, or the queue started in
   * the middle of a server shuffle): going round again fetches the source from its first page.
   */
  readonly partial: boolean;
}

/** The play order from before shuffle went on; turning shuffle off returns to it. */
export interface Unshuffled {
  /** Song ids in list order, plus songs queued while shuffled. */
  readonly ids: readonly number[];
  /**
   * A server-side shuffle replaces the feed; the list's own feed waits here. Null when the queue's feed fills both
   * orders (the shuffled queue and `ids`).
   */
  readonly feed: QueueFeed | null;
  /** The song that was current when shuffle went on: the list order resumes after it if the current song is not in `ids`. */
  readonly resumeAfter: number;
}

export interface PlayerState {
  /**
   * The play order, as song ids, each once: the loaded part of the list the current song was chosen from
   * (shuffled when shuffle is on), plus queue edits. With a feed, songs long played are let go (QUEUE_HISTORY_MAX).
   */
  readonly queue: readonly number[];
  /** The Song of every id in `queue` and `unshuffled`: what the queue view shows and the engine plays. */
  readonly songs: ReadonlyMap<number, Song>;
  readonly index: number;
  readonly current: Song;
  /** The paged source the queue goes on with; null for a fixed list (playList). */
  readonly feed: QueueFeed | null;
  /** Bumped with every new feed, so a page fetched for an older one is dropped. */
  readonly feedKey: number;
  /** Next, or a song that ended, at the end of the loaded queue: it waits for the page that is being fetched. */
  readonly waiting: Advance | null;
  readonly playing: boolean;
  /** 0..1 */
  readonly volume: number;
  readonly muted: boolean;
  readonly shuffle: boolean;
  /** Null while shuffle is off. */
  readonly unshuffled: Unshuffled | null;
  readonly repeat: RepeatMode;
  /** Bumped whenever a track should (re)start from the beginning, so the engine reloads even for the same song. */
  readonly trackKey: number;
}

export const initialPlayerState: PlayerState = {
  queue: [WELCOME_SONG.id],
  songs: new Map([[WELCOME_SONG.id, WELCOME_SONG]]),
  index: 0,
  current: WELCOME_SONG,
  feed: null,
  feedKey: 0,
  waiting: null,
  playing: false,
  volume: 1,
  muted: false,
  shuffle: false,
  unshuffled: null,
  repeat: 'off',
  trackKey: 0,
};
