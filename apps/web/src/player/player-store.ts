import type { Song, SongPage } from '@tonearm/contract';
import {
  initialPlayerState,
  REPEAT_MODES,
  type PlayerState,
  type QueueStart,
  type RepeatMode,
} from './player-state.js';
import * as edits from './queue-edits.js';

export { initialPlayerState, REPEAT_MODES };
export type { PlayerState, QueueFeed, QueueStart, RepeatMode, Unshuffled } from './player-state.js';
export { songAfterCurrent, upcomingSongs } from './queue-edits.js';

export type PlayerAction =
  | { type: 'playList'; songs: readonly Song[]; index: number }
  | { type: 'playFrom'; start: QueueStart }
  /** A page of the feed `feedKey`, fetched after `after` (null: its first page). */
  | { type: 'pageLoaded'; feedKey: number; after: string | null; page: SongPage }
  /** A page could not be had: the feed stays for a later try, or (`final`, e.g. the list is gone) it ends. */
  | { type: 'pageFailed'; feedKey: number; final: boolean }
  | { type: 'toggle' }
  | { type: 'play' }
  | { type: 'pause' }
  | { type: 'next' }
  | { type: 'previous' }
  | { type: 'ended' }
  | { type: 'setVolume'; volume: number }
  | { type: 'toggleMute' }
  | { type: 'toggleShuffle' }
  | { type: 'setRepeat'; repeat: RepeatMode }
  | { type: 'cycleRepeat' }
  | { type: 'playNext'; song: Song }
  | { type: 'addToQueue'; song: Song }
  | { type: 'removeFromQueue'; index: number }
  | { type: 'moveInQueue'; from: number; to: number }
  | { type: 'jumpTo'; index: number }
  | { type: 'updateSong'; songId: number; changes: Partial<Song> }
  | { type: 'reset' };

function clampVolume(volume: number): number {
  if (!Number.isFinite(volume)) return 1;
  return Math.min(1, Math.max(0, volume));
}

/** True when the page answers the feed as it stands now (not an older feed, not a page already appended). */
function isAwaitedPage(state: PlayerState, feedKey: number, after: string | null): boolean {
  const { feed } = state;
  if (!feed || state.feedKey !== feedKey) return false;
  return feed.more ? feed.cursor === after : after === null;
}

function onPageLoaded(state: PlayerState, action: Extract<PlayerAction, { type: 'pageLoaded' }>, random: () => number) {
  if (!isAwaitedPage(state, action.feedKey, action.after)) return state;
  let next = edits.appendPage(state, action.page, random);
  // The list again from its start has nothing but the current song: it has nothing more to give.
  const nothingNew = next.queue.length === state.queue.length && !next.feed?.more;
  if (action.after === null && nothingNew) next = { ...next, feed: null };
  if (!next.waiting) return next;
  const resumed = edits.advance(next, next.waiting);
  // Still waiting: the next page is on its way, unless this was the last one; then the loaded queue is all there is.
  return resumed.waiting && !resumed.feed?.more ? edits.advanceWithinLoaded(resumed) : resumed;
}

function onPageFailed(state: PlayerState, feedKey: number, final: boolean): PlayerState {
  if (!state.feed || state.feedKey !== feedKey) return state;
  // The music goes on within what is loaded; a final failure turns the queue into a fixed list.
  return edits.advanceWithinLoaded(final ? { ...state, feed: null } : state);
}

function reduce(state: PlayerState, action: PlayerAction, random: () => number): PlayerState {
  switch (action.type) {
    case 'playList':
      return edits.playList(state, action.songs, action.index, random);
    case 'playFrom':
      return edits.playFrom(state, action.start, random);
    case 'pageLoaded':
      return onPageLoaded(state, action, random);
    case 'pageFailed':
      return onPageFailed(state, action.feedKey, action.final);
    case 'toggle':
      return { ...state, playing: !state.playing };
    case 'play':
      return state.playing ? state : { ...state, playing: true };
    case 'pause':
      return state.playing ? { ...state, playing: false } : state;
    case 'next':
    case 'ended':
      return edits.advance(state, action.type);
    case 'previous':
      return edits.startAt(state, Math.max(0, state.index - 1));
    case 'setVolume': {
      const volume = clampVolume(action.volume);
      return { ...state, volume, muted: volume === 0 ? state.muted : false };
    }
    case 'toggleMute':
      return { ...state, muted: !state.muted };
    case 'toggleShuffle':
      return state.shuffle ? edits.shuffleOff(state) : edits.shuffleOn(state, random);
    case 'setRepeat':
      return state.repeat === action.repeat ? state : { ...state, repeat: action.repeat };
    case 'cycleRepeat': {
      const next = REPEAT_MODES[(REPEAT_MODES.indexOf(state.repeat) + 1) % REPEAT_MODES.length] ?? 'off';
      return { ...state, repeat: next };
    }
    case 'playNext':
      return edits.insertIntoQueue(state, action.song, 'next');
    case 'addToQueue':
      return edits.insertIntoQueue(state, action.song, 'end');
    case 'removeFromQueue':
      return edits.removeFromQueue(state, action.index);
    case 'moveInQueue':
      return edits.moveInQueue(state, action.from, action.to);
    case 'jumpTo':
      return edits.startAt(state, action.index);
    case 'updateSong':
      return edits.updateSong(state, action.songId, action.changes);
    case 'reset':
      return {
        ...initialPlayerState,
        volume: state.volume,
        muted: state.muted,
        trackKey: state.trackKey + 1,
        feedKey: state.feedKey + 1,
      };
  }
}

/**
 * The player's rules (SPEC §4 plus DESIGN §5): choosing a song sets the list, index and current song and plays it;
 * shuffle keeps the current song and randomises the rest; repeat off/all/one decides what follows the last song.
 * A list chosen with playFrom goes on page by page (the feed); the queue holds ids and the Song objects they need.
 * `random` is injected so tests can pin the shuffle and the shuffle seed.
 */
export function createPlayerReducer(random: () => number = Math.random) {
  return function playerReducer(state: PlayerState, action: PlayerAction): PlayerState {
    const next = reduce(state, action, random);
    return next.queue === state.queue && next.unshuffled === state.unshuffled ? next : edits.pruneSongs(next);
  };
}

export const playerReducer = createPlayerReducer();

export interface Store<S, A> {
  getState: () => S;
  dispatch: (action: A) => void;
  subscribe: (listener: () => void) => () => void;
}

/** A minimal external store for useSyncExternalStore; components subscribe to the slices they show. */
export function createStore<S, A>(reducer: (state: S, action: A) => S, initial: S): Store<S, A> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch: (action) => {
      const next = reducer(state, action);
      if (next === state) return;
      state = next;
      listeners.forEach((listener) => {
        listener();
      });
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type PlayerStore = Store<PlayerState, PlayerAction>;

export function createPlayerStore(
  initial: PlayerState = initialPlayerState,
  random: () => number = Math.random,
): PlayerStore {
  return createStore(createPlayerReducer(random), initial);
}

/** Position and duration change several times a second; they live apart so only the seek bar re-renders. */
export interface PlayerClock {
  readonly position: number;
  readonly duration: number;
}

export type ClockAction =
  { type: 'time'; position: number } | { type: 'duration'; duration: number } | { type: 'reset'; position?: number };

export function clockReducer(clock: PlayerClock, action: ClockAction): PlayerClock {
  switch (action.type) {
    case 'time':
      return clock.position === action.position ? clock : { ...clock, position: action.position };
    case 'duration': {
      const duration = Number.isFinite(action.duration) ? action.duration : 0;
      return clock.duration === duration ? clock : { ...clock, duration };
    }
    case 'reset': {
      const position = action.position ?? 0;
      return clock.position === position && clock.duration === 0 ? clock : { position, duration: 0 };
    }
  }
}

export type ClockStore = Store<PlayerClock, ClockAction>;

export function createClockStore(): ClockStore {
  return createStore(clockReducer, { position: 0, duration: 0 });
}
