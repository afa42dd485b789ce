import type { Song } from '@tonearm/contract';
import { shuffle } from '../lib/shuffle.js';
import { nextIndex, type RepeatMode } from './next-song.js';
import { WELCOME_SONG } from './welcome-song.js';

export type { RepeatMode };
export const REPEAT_MODES: readonly RepeatMode[] = ['off', 'all', 'one'];

export interface PlayerState {
  /** The play order: the list the current song was chosen from (shuffled when shuffle is on), plus queue edits. */
  readonly queue: readonly Song[];
  readonly index: number;
  readonly current: Song;
  readonly playing: boolean;
  /** 0..1 */
  readonly volume: number;
  readonly muted: boolean;
  readonly shuffle: boolean;
  /** The order before shuffling; turning shuffle off returns to it. Null while shuffle is off. */
  readonly unshuffled: readonly Song[] | null;
  readonly repeat: RepeatMode;
  /** Bumped whenever a track should (re)start from the beginning, so the engine reloads even for the same song. */
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

export const initialPlayerState: PlayerState = {
  queue: [WELCOME_SONG],
  index: 0,
  current: WELCOME_SONG,
  playing: false,
  volume: 1,
  muted: false,
  shuffle: false,
  unshuffled: null,
  repeat: 'off',
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

/** `song` first, then the others in random order: shuffling never interrupts the song that is playing. */
function shuffledAround(songs: readonly Song[], song: Song, random: () => number): Song[] {
  return [song, ...shuffle(withoutSong(songs, song.id), random)];
}

function withoutSong(songs: readonly Song[], songId: number): Song[] {
  return songs.filter((entry) => entry.id !== songId);
}

function move<T>(items: readonly T[], from: number, to: number): T[] {
  const result = [...items];
  const [item] = result.splice(from, 1);
  if (item !== undefined) result.splice(to, 0, item);
  return result;
}

/** Back to the original order, keeping queue edits made while shuffled (additions at the end, removals honoured). */
function unshuffle(state: PlayerState): PlayerState {
  const inQueue = new Set(state.queue.map((song) => song.id));
  const original = (state.unshuffled ?? []).filter((song) => inQueue.has(song.id));
  const originalIds = new Set(original.map((song) => song.id));
  const queue = [...original, ...state.queue.filter((song) => !originalIds.has(song.id))];
  const index = Math.max(
    0,
    queue.findIndex((song) => song.id === state.current.id),
  );
  return { ...state, queue, index, shuffle: false, unshuffled: null };
}

/** Inserts `song` at `position` of the queue, taking it out of its old place first; the current song stays put. */
function insertIntoQueue(state: PlayerState, song: Song, position: (queue: readonly Song[], index: number) => number) {
  if (song.id === state.current.id) return state;
  const queue = withoutSong(state.queue, song.id);
  const currentIndex = queue.findIndex((entry) => entry.id === state.current.id);
  if (currentIndex < 0) return state;
  queue.splice(position(queue, currentIndex), 0, song);
  const unshuffled = state.unshuffled && [...withoutSong(state.unshuffled, song.id), song];
  return { ...state, queue, index: queue.findIndex((entry) => entry.id === state.current.id), unshuffled };
}

function onNext(state: PlayerState): PlayerState {
  const next = nextIndex(state, 'next');
  return next === null ? state : startAt(state, state.queue, next);
}

function onEnded(state: PlayerState): PlayerState {
  const next = nextIndex(state, 'ended');
  // Nothing follows (repeat off, last song): playback stops on it.
  return next === null ? { ...state, playing: false } : startAt(state, state.queue, next);
}

function patchSongs(songs: readonly Song[], songId: number, changes: Partial<Song>): Song[] {
  return songs.map((song) => (song.id === songId ? { ...song, ...changes } : song));
}

function updateSong(state: PlayerState, songId: number, changes: Partial<Song>): PlayerState {
  if (!state.queue.some((song) => song.id === songId) && state.current.id !== songId) return state;
  return {
    ...state,
    queue: patchSongs(state.queue, songId, changes),
    unshuffled: state.unshuffled && patchSongs(state.unshuffled, songId, changes),
    current: state.current.id === songId ? { ...state.current, ...changes } : state.current,
  };
}

function removeFromQueue(state: PlayerState, index: number): PlayerState {
  // The playing song is not removed from under the listener; skipping is what Next is for.
  if (index === state.index || index < 0 || index >= state.queue.length) return state;
  const removed = state.queue[index];
  const queue = state.queue.filter((_, i) => i !== index);
  const unshuffled = removed && state.unshuffled ? withoutSong(state.unshuffled, removed.id) : state.unshuffled;
  return { ...state, queue, unshuffled, index: index < state.index ? state.index - 1 : state.index };
}

function moveInQueue(state: PlayerState, from: number, to: number): PlayerState {
  const last = state.queue.length - 1;
  if (from === to || from < 0 || from > last || to < 0 || to > last) return state;
  const queue = move(state.queue, from, to);
  return { ...state, queue, index: queue.findIndex((song) => song.id === state.current.id) };
}

/**
 * The player's rules (SPEC §4 plus DESIGN §5): choosing a song sets the list, index and current song and plays it;
 * shuffle keeps the current song and randomises the rest; repeat off/all/one decides what follows the last song.
 * `random` is injected so tests can pin the shuffle.
 */
export function createPlayerReducer(random: () => number = Math.random) {
  return function playerReducer(state: PlayerState, action: PlayerAction): PlayerState {
    switch (action.type) {
      case 'playList': {
        const chosen = action.songs[action.index];
        if (!chosen) return state;
        if (!state.shuffle) return { ...startAt(state, [...action.songs], action.index), unshuffled: null };
        return { ...startAt(state, shuffledAround(action.songs, chosen, random), 0), unshuffled: [...action.songs] };
      }
      case 'toggle':
        return { ...state, playing: !state.playing };
      case 'play':
        return state.playing ? state : { ...state, playing: true };
      case 'pause':
        return state.playing ? { ...state, playing: false } : state;
      case 'next':
        return onNext(state);
      case 'previous':
        return startAt(state, state.queue, Math.max(0, state.index - 1));
      case 'ended':
        return onEnded(state);
      case 'setVolume': {
        const volume = clampVolume(action.volume);
        return { ...state, volume, muted: volume === 0 ? state.muted : false };
      }
      case 'toggleMute':
        return { ...state, muted: !state.muted };
      case 'toggleShuffle':
        if (state.shuffle) return unshuffle(state);
        return {
          ...state,
          queue: shuffledAround(state.queue, state.current, random),
          index: 0,
          shuffle: true,
          unshuffled: state.queue,
        };
      case 'setRepeat':
        return state.repeat === action.repeat ? state : { ...state, repeat: action.repeat };
      case 'cycleRepeat': {
        const next = REPEAT_MODES[(REPEAT_MODES.indexOf(state.repeat) + 1) % REPEAT_MODES.length] ?? 'off';
        return { ...state, repeat: next };
      }
      case 'playNext':
        return insertIntoQueue(state, action.song, (_queue, index) => index + 1);
      case 'addToQueue':
        return insertIntoQueue(state, action.song, (queue) => queue.length);
      case 'removeFromQueue':
        return removeFromQueue(state, action.index);
      case 'moveInQueue':
        return moveInQueue(state, action.from, action.to);
      case 'jumpTo':
        return startAt(state, state.queue, action.index);
      case 'updateSong':
        return updateSong(state, action.songId, action.changes);
      case 'reset':
        return { ...initialPlayerState, volume: state.volume, muted: state.muted, trackKey: state.trackKey + 1 };
    }
  };
}

export const playerReducer = createPlayerReducer();

/** The songs after the current one, with their queue positions: what the queue view lists as "Next up". */
export function upcomingSongs(state: Pick<PlayerState, 'queue' | 'index'>): { song: Song; index: number }[] {
  return state.queue.slice(state.index + 1).map((song, i) => ({ song, index: state.index + 1 + i }));
}

/** The song the engine should have ready when the current one ends; null when playback would stop. */
export function songAfterCurrent(state: PlayerState): Song | null {
  const next = nextIndex(state, 'ended');
  return next === null ? null : (state.queue[next] ?? null);
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
