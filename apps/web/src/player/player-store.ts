import type { Song } from '@tonearm/contract';
import { WELCOME_SONG } from './welcome-song.js';

export interface PlayerState {
  /** The list the current song was chosen from; next/previous walk it. */
  readonly queue: readonly Song[];
  readonly index: number;
  readonly current: Song;
  readonly playing: boolean;
  /** 0..1 */
  readonly volume: number;
  readonly muted: boolean;
  /**
   * Bumped whenever a track should (re)start from the beginning, so the engine reloads even when the same song
   * is chosen again. Shuffle, repeat and a queue editor later add actions here without touching the engine.
   */
  readonly trackKey: number;
}

export type PlayerAction =
  | { type: 'playList'; songs: readonly Song[]; index: number }
  | { type: 'toggle' }
  | { type: 'play' }
  | { type: 'pause' }
  | { type: 'next' }
  | { type: 'previous' }
  | { type: 'ended' }
  | { type: 'setVolume'; volume: number }
  | { type: 'toggleMute' }
  | { type: 'reset' };

export const initialPlayerState: PlayerState = {
  queue: [WELCOME_SONG],
  index: 0,
  current: WELCOME_SONG,
  playing: false,
  volume: 1,
  muted: false,
  trackKey: 0,
};

function startAt(state: PlayerState, queue: readonly Song[], index: number): PlayerState {
  const song = queue[index];
  if (!song) return state;
  return { ...state, queue, index, current: song, playing: true, trackKey: state.trackKey + 1 };
}

function clampVolume(volume: number): number {
  if (!Number.isFinite(volume)) return 1;
  return Math.min(1, Math.max(0, volume));
}

/** SPEC §4 player: toggles playing/paused; choosing a song sets the list, the index and the current song. */
export function playerReducer(state: PlayerState, action: PlayerAction): PlayerState {
  switch (action.type) {
    case 'playList':
      return startAt(state, [...action.songs], action.index);
    case 'toggle':
      return { ...state, playing: !state.playing };
    case 'play':
      return state.playing ? state : { ...state, playing: true };
    case 'pause':
      return state.playing ? { ...state, playing: false } : state;
    case 'next':
      // A user pressing next on the last song wraps to the first, like a repeating queue.
      return startAt(state, state.queue, (state.index + 1) % state.queue.length);
    case 'previous':
      return startAt(state, state.queue, Math.max(0, state.index - 1));
    case 'ended':
      // Repeat is off: playback moves on and stops after the last song.
      if (state.index + 1 < state.queue.length) return startAt(state, state.queue, state.index + 1);
      return { ...state, playing: false };
    case 'setVolume': {
      const volume = clampVolume(action.volume);
      return { ...state, volume, muted: volume === 0 ? state.muted : false };
    }
    case 'toggleMute':
      return { ...state, muted: !state.muted };
    case 'reset':
      return { ...initialPlayerState, volume: state.volume, muted: state.muted, trackKey: state.trackKey + 1 };
  }
}

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

export function createPlayerStore(initial: PlayerState = initialPlayerState): PlayerStore {
  return createStore(playerReducer, initial);
}

/** Position and duration change several times a second; they live apart so only the seek bar re-renders. */
export interface PlayerClock {
  readonly position: number;
  readonly duration: number;
}

export type ClockAction =
  { type: 'time'; position: number } | { type: 'duration'; duration: number } | { type: 'reset' };

export function clockReducer(clock: PlayerClock, action: ClockAction): PlayerClock {
  switch (action.type) {
    case 'time':
      return clock.position === action.position ? clock : { ...clock, position: action.position };
    case 'duration': {
      const duration = Number.isFinite(action.duration) ? action.duration : 0;
      return clock.duration === duration ? clock : { ...clock, duration };
    }
    case 'reset':
      return clock.position === 0 && clock.duration === 0 ? clock : { position: 0, duration: 0 };
  }
}

export type ClockStore = Store<PlayerClock, ClockAction>;

export function createClockStore(): ClockStore {
  return createStore(clockReducer, { position: 0, duration: 0 });
}
