import { SONG_PAGE_ORDERS, SORT_DIRECTIONS, type Song } from '@tonearm/contract';
import { isSong, isSongList } from '../lib/song-guards.js';
import type { SongSource } from '../lib/song-sources.js';
import { AppStorageKeys, readJson, removeKey, writeJson } from '../lib/storage.js';
import {
  initialPlayerState,
  REPEAT_MODES,
  type ClockStore,
  type PlayerState,
  type PlayerStore,
  type QueueFeed,
  type RepeatMode,
  type Unshuffled,
} from './player-store.js';
import { windowOf } from './queue-edits.js';
import { isWelcomeSong } from './welcome-song.js';

/**
 * The saved queue is a window of ids around the current song, with the Song objects of those ids, so a restored
 * player resumes without a fetch; a feed's cursor goes with it, so the restored queue fetches ahead as usual.
 */
export const PERSISTED_QUEUE_MAX = 200;
/** Played songs kept in the saved window before the current one; the rest of the window is what comes next. */
export const PERSISTED_HISTORY = 20;
/** The list order kept for shuffle off after a server-side shuffle: a smaller window around where it left off. */
export const PERSISTED_UNSHUFFLED_MAX = 100;
/** How often the position is written while a song plays. */
export const POSITION_SAVE_INTERVAL_MS = 2000;

export interface PersistedPlayer {
  version: 2;
  /** Song ids: a window of the queue that holds the current song. */
  queue: readonly number[];
  index: number;
  /** The Song of every id in `queue` and `unshuffled.ids`. */
  songs: Song[];
  feed: QueueFeed | null;
  shuffle: boolean;
  unshuffled: Unshuffled | null;
  repeat: RepeatMode;
  volume: number;
  muted: boolean;
}

/** What versions before issue 11 wrote: the queue as Song objects, without a feed. Still read after an update. */
interface LegacyPlayer {
  queue: Song[];
  index: number;
  shuffle: boolean;
  unshuffled: Song[] | null;
  repeat: RepeatMode;
  volume: number;
  muted: boolean;
}

export interface PersistedPosition {
  songId: number;
  position: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function isIdList(value: unknown): value is number[] {
  return Array.isArray(value) && value.every(isId);
}

function isOptional(value: unknown, type: 'string' | 'number'): boolean {
  return value === undefined || typeof value === type;
}

function isSongSource(value: unknown): value is SongSource {
  if (!isRecord(value)) return false;
  switch (value.kind) {
    case 'catalogue':
      return (
        isOptional(value.artistId, 'number') &&
        isOptional(value.genre, 'string') &&
        (value.order === undefined || SONG_PAGE_ORDERS.some((order) => order === value.order)) &&
        (value.direction === undefined || SORT_DIRECTIONS.some((direction) => direction === value.direction)) &&
        isOptional(value.seed, 'number')
      );
    case 'liked':
      return true;
    case 'playlist':
      return isId(value.playlistId);
    case 'search':
      return typeof value.q === 'string';
    default:
      return false;
  }
}

function isFeed(value: unknown): value is QueueFeed {
  return (
    isRecord(value) &&
    isSongSource(value.source) &&
    typeof value.more === 'boolean' &&
    (value.cursor === null || typeof value.cursor === 'string') &&
    typeof value.partial === 'boolean'
  );
}

function isUnshuffled(value: unknown): value is Unshuffled {
  return (
    isRecord(value) && isIdList(value.ids) && (value.feed === null || isFeed(value.feed)) && isId(value.resumeAfter)
  );
}

/** Volume, modes and a valid index into `queue`: what both versions share. */
function hasPlayerBasics(value: Record<string, unknown>, queue: readonly unknown[]): boolean {
  return (
    queue.length > 0 &&
    typeof value.index === 'number' &&
    Number.isInteger(value.index) &&
    value.index >= 0 &&
    value.index < queue.length &&
    typeof value.shuffle === 'boolean' &&
    REPEAT_MODES.includes(value.repeat as RepeatMode) &&
    typeof value.volume === 'number' &&
    typeof value.muted === 'boolean'
  );
}

function isPersistedPlayer(value: unknown): value is PersistedPlayer {
  return (
    isRecord(value) &&
    value.version === 2 &&
    isIdList(value.queue) &&
    hasPlayerBasics(value, value.queue) &&
    isSongList(value.songs) &&
    (value.feed === null || isFeed(value.feed)) &&
    (value.unshuffled === null || isUnshuffled(value.unshuffled))
  );
}

function isLegacyPlayer(value: unknown): value is LegacyPlayer {
  return (
    isRecord(value) &&
    value.version === undefined &&
    isSongList(value.queue) &&
    hasPlayerBasics(value, value.queue) &&
    (value.unshuffled === null || isSongList(value.unshuffled))
  );
}

function isPersistedPosition(value: unknown): value is PersistedPosition {
  return isRecord(value) && typeof value.songId === 'number' && typeof value.position === 'number';
}

function persistedUnshuffled(unshuffled: Unshuffled | null, queue: readonly number[]): Unshuffled | null {
  if (!unshuffled) return null;
  if (unshuffled.feed === null) {
    const inQueue = new Set(queue);
    return { ...unshuffled, ids: unshuffled.ids.filter((id) => inQueue.has(id)) };
  }
  const at = Math.max(0, unshuffled.ids.indexOf(unshuffled.resumeAfter));
  const sizes = { max: PERSISTED_UNSHUFFLED_MAX, history: PERSISTED_HISTORY };
  const { ids, feed } = windowOf(unshuffled.ids, at, unshuffled.feed, sizes);
  return { ...unshuffled, ids, feed };
}

/** The part of the state worth keeping, bounded however long the list: see PERSISTED_QUEUE_MAX. */
export function toPersisted(state: PlayerState): PersistedPlayer {
  const sizes = { max: PERSISTED_QUEUE_MAX, history: PERSISTED_HISTORY };
  const { ids, index, feed } = windowOf(state.queue, state.index, state.feed, sizes);
  const unshuffled = persistedUnshuffled(state.unshuffled, ids);
  const needed = new Set([...ids, ...(unshuffled?.ids ?? [])]);
  const songs = [...needed].flatMap((id) => state.songs.get(id) ?? []);
  return {
    version: 2,
    queue: ids,
    index,
    songs,
    feed,
    shuffle: state.shuffle,
    unshuffled: state.shuffle ? unshuffled : null,
    repeat: state.repeat,
    volume: state.volume,
    muted: state.muted,
  };
}

function fromLegacy(saved: LegacyPlayer): PersistedPlayer {
  const current = saved.queue[saved.index];
  const unshuffled =
    saved.unshuffled && current
      ? { ids: saved.unshuffled.map((song) => song.id), feed: null, resumeAfter: current.id }
      : null;
  return {
    ...saved,
    version: 2,
    queue: saved.queue.map((song) => song.id),
    songs: [...saved.queue, ...(saved.unshuffled ?? [])],
    feed: null,
    unshuffled,
  };
}

/** A stored player becomes the starting state, paused: browsers do not let a page start sound by itself. */
export function fromPersisted(saved: PersistedPlayer): PlayerState {
  const songs = new Map(saved.songs.map((song) => [song.id, song]));
  const ids = [...saved.queue, ...(saved.unshuffled?.ids ?? [])];
  const currentId = saved.queue[saved.index];
  const current = currentId === undefined ? undefined : songs.get(currentId);
  if (!current || !isSong(current) || !ids.every((id) => songs.has(id))) return initialPlayerState;
  return {
    ...initialPlayerState,
    queue: saved.queue,
    songs,
    index: saved.index,
    current,
    feed: saved.feed,
    shuffle: saved.shuffle,
    unshuffled: saved.shuffle ? saved.unshuffled : null,
    repeat: saved.repeat,
    volume: Math.min(1, Math.max(0, saved.volume)),
    muted: saved.muted,
  };
}

function readSaved(): PersistedPlayer | undefined {
  const saved = readJson(AppStorageKeys.player, (value) => isPersistedPlayer(value) || isLegacyPlayer(value));
  if (!saved) return undefined;
  return isPersistedPlayer(saved) ? saved : fromLegacy(saved);
}

export interface RestoredPlayer {
  state: PlayerState;
  /** Seconds into the current song, when the stored position belongs to it. */
  position: number;
}

export function readPersistedPlayer(): RestoredPlayer {
  const saved = readSaved();
  if (!saved) return { state: initialPlayerState, position: 0 };
  const state = fromPersisted(saved);
  const stored = readJson(AppStorageKeys.playerPosition, isPersistedPosition);
  const position = stored?.songId === state.current.id && stored.position > 0 ? stored.position : 0;
  return { state, position };
}

export function clearPersistedPlayer(): void {
  removeKey(AppStorageKeys.player);
  removeKey(AppStorageKeys.playerPosition);
}

/**
 * Writes the player state whenever it changes (coalesced to one write per task) and the position every few seconds,
 * on pause and when the page is hidden or closed. Returns a disconnect function.
 */
export function persistPlayer(store: PlayerStore, clock: ClockStore): () => void {
  let pending = false;
  let lastSaved: PlayerState | null = null;
  const saveState = (): void => {
    pending = false;
    const state = store.getState();
    if (state === lastSaved) return;
    lastSaved = state;
    // Nothing chosen yet (or just logged out): there is nothing to restore.
    if (isWelcomeSong(state.current)) clearPersistedPlayer();
    else writeJson(AppStorageKeys.player, toPersisted(state));
  };
  const savePosition = (): void => {
    const { current } = store.getState();
    if (isWelcomeSong(current)) return;
    writeJson(AppStorageKeys.playerPosition, { songId: current.id, position: clock.getState().position });
  };

  let lastTrack = store.getState().trackKey;
  let lastPlaying = store.getState().playing;
  const unsubscribe = store.subscribe(() => {
    const state = store.getState();
    if (state.trackKey !== lastTrack) {
      lastTrack = state.trackKey;
      if (!isWelcomeSong(state.current)) {
        writeJson(AppStorageKeys.playerPosition, { songId: state.current.id, position: 0 });
      }
    } else if (lastPlaying && !state.playing) {
      savePosition();
    }
    lastPlaying = state.playing;
    if (!pending) {
      pending = true;
      queueMicrotask(saveState);
    }
  });
  const timer = setInterval(() => {
    if (store.getState().playing) savePosition();
  }, POSITION_SAVE_INTERVAL_MS);
  const onHide = (): void => {
    if (document.visibilityState === 'hidden') savePosition();
  };
  document.addEventListener('visibilitychange', onHide);
  window.addEventListener('pagehide', savePosition);
  return () => {
    unsubscribe();
    clearInterval(timer);
    document.removeEventListener('visibilitychange', onHide);
    window.removeEventListener('pagehide', savePosition);
  };
}
