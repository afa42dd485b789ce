import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppStorageKeys } from '../lib/storage.js';
import { makeSong } from '../test/fixtures.js';
import {
  PERSISTED_QUEUE_MAX,
  persistPlayer,
  POSITION_SAVE_INTERVAL_MS,
  readPersistedPlayer,
  toPersisted,
} from './player-persistence.js';
import { createClockStore, createPlayerStore, initialPlayerState, playerReducer } from './player-store.js';

const songs = [makeSong(1), makeSong(2), makeSong(3)];

function stored(key: string): unknown {
  return JSON.parse(localStorage.getItem(key) ?? 'null');
}

describe('player persistence', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the queue, modes and volume, and restores them paused at the saved position', async () => {
    const store = createPlayerStore();
    const clock = createClockStore();
    const stop = persistPlayer(store, clock);
    store.dispatch({ type: 'playList', songs, index: 1 });
    store.dispatch({ type: 'setRepeat', repeat: 'all' });
    store.dispatch({ type: 'setVolume', volume: 0.4 });
    await Promise.resolve();
    expect(stored(AppStorageKeys.player)).toMatchObject({ index: 1, repeat: 'all', volume: 0.4, shuffle: false });

    clock.dispatch({ type: 'time', position: 42.5 });
    vi.advanceTimersByTime(POSITION_SAVE_INTERVAL_MS);
    expect(stored(AppStorageKeys.playerPosition)).toEqual({ songId: 2, position: 42.5 });
    stop();

    const restored = readPersistedPlayer();
    expect(restored.state.current.id).toBe(2);
    expect(restored.state.queue).toEqual([1, 2, 3]);
    expect(restored.state.playing).toBe(false);
    expect(restored.state.repeat).toBe('all');
    expect(restored.state.volume).toBe(0.4);
    expect(restored.position).toBe(42.5);
  });

  it('saves the position when playback pauses and resets it when another song starts', async () => {
    const store = createPlayerStore();
    const clock = createClockStore();
    persistPlayer(store, clock);
    store.dispatch({ type: 'playList', songs, index: 0 });
    clock.dispatch({ type: 'time', position: 7 });
    store.dispatch({ type: 'pause' });
    expect(stored(AppStorageKeys.playerPosition)).toEqual({ songId: 1, position: 7 });
    store.dispatch({ type: 'next' });
    expect(stored(AppStorageKeys.playerPosition)).toEqual({ songId: 2, position: 0 });
    await Promise.resolve();
    expect(readPersistedPlayer().position).toBe(0);
  });

  it('keeps nothing for the welcome song (nothing chosen, or after logout)', async () => {
    const store = createPlayerStore();
    persistPlayer(store, createClockStore());
    store.dispatch({ type: 'playList', songs, index: 0 });
    await Promise.resolve();
    expect(localStorage.getItem(AppStorageKeys.player)).not.toBeNull();
    store.dispatch({ type: 'reset' });
    await Promise.resolve();
    expect(localStorage.getItem(AppStorageKeys.player)).toBeNull();
    expect(readPersistedPlayer().state).toBe(initialPlayerState);
  });

  it('ignores a damaged or foreign entry', () => {
    localStorage.setItem(AppStorageKeys.player, JSON.stringify({ queue: [{ id: 'x' }], index: 0 }));
    expect(readPersistedPlayer().state).toBe(initialPlayerState);
    localStorage.setItem(AppStorageKeys.player, '{not json');
    expect(readPersistedPlayer().state).toBe(initialPlayerState);
    localStorage.setItem(AppStorageKeys.player, JSON.stringify({ ...toPersisted(initialPlayerState), index: 5 }));
    expect(readPersistedPlayer().state).toBe(initialPlayerState);
  });

  it('cuts a very long queue to a window that still holds the current song', () => {
    const many = Array.from({ length: 2000 }, (_, i) => makeSong(i + 1));
    const state = playerReducer(initialPlayerState, { type: 'playList', songs: many, index: 1500 });
    const saved = toPersisted(state);
    expect(saved.queue).toHaveLength(PERSISTED_QUEUE_MAX);
    expect(saved.queue[saved.index]).toBe(1501);
  });
});
