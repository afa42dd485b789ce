import type { Song } from '@tonearm/contract';
import { isSong, isSongList } from '../lib/song-guards.js';
import { AppStorageKeys, readJson, removeKey, writeJson } from '../lib/storage.js';
import {
  initialPlayerState,
  REPEAT_MODES,
  type ClockStore,
  type PlayerState,
  type PlayerStore,
  type RepeatMode,
} from './player-store.js';
import { isWelcomeSong } from './welcome-song.js';

/** Long queues ("play all 10 000 songs") are cut to a window around the current song to stay far below quotas. */
export const PERSISTED_QUEUE_MAX = 500;
/** How often the position is written while a song plays. */
export const POSITION_SAVE_INTERVAL_MS = 2000;

export interface PersistedPlayer {
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

function isPersistedPlayer(value: unknown): value is PersistedPlayer {
  return (
    isRecord(value) &&
    isSongList(value.queue) &&
    value.queue.length > 0 &&
    typeof value.index === 'number' &&
    Number.isInteger(value.index) &&
    value.index >= 0 &&
    value.index < value.queue.length &&
    typeof value.shuffle === 'boolean' &&
    (value.unshuffled === null || isSongList(value.unshuffled)) &&
    REPEAT_MODES.includes(value.repeat as RepeatMode) &&
    typeof value.volume === 'number' &&
    typeof value.muted === 'boolean'
  );
}

function isPersistedPosition(value: unknown): value is PersistedPosition {
  return isRecord(value) && typeof value.songId === 'number' && typeof value.position === 'number';
}

/** The part of the state worth keeping, with the queue cut to a window that still contains the current song. */
export function toPersisted(state: PlayerState): PersistedPlayer {
  const start = Math.max(0, Math.min(state.index - 100, state.queue.length - PERSISTED_QUEUE_MAX));
  const queue = state.queue.slice(start, start + PERSISTED_QUEUE_MAX);
  return {
    queue,
    index: state.index - start,
    shuffle: state.shuffle,
    unshuffled: state.unshuffled ? state.unshuffled.slice(0, PERSISTED_QUEUE_MAX) : null,
    repeat: state.repeat,
    volume: state.volume,
    muted: state.muted,
  };
}

/** A stored player becomes the starting state, paused: browsers do not let a page start sound by itself. */
export function fromPersisted(saved: PersistedPlayer): PlayerState {
  const current = saved.queue[saved.index];
  if (!current || !isSong(current)) return initialPlayerState;
  return {
    ...initialPlayerState,
    queue: saved.queue,
    index: saved.index,
    current,
    shuffle: saved.shuffle,
    unshuffled: saved.shuffle ? saved.unshuffled : null,
    repeat: saved.repeat,
    volume: Math.min(1, Math.max(0, saved.volume)),
    muted: saved.muted,
  };
}

export interface RestoredPlayer {
  state: PlayerState;
  /** Seconds into the current song, when the stored position belongs to it. */
  position: number;
}

export function readPersistedPlayer(): RestoredPlayer {
  const saved = readJson(AppStorageKeys.player, isPersistedPlayer);
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
