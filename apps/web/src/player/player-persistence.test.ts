import type { SongPage } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SongSource } from '../lib/song-sources.js';
import { AppStorageKeys } from '../lib/storage.js';
import { makeSong } from '../test/fixtures.js';
import { mockApi } from '../test/mock-api.js';
import {
  PERSISTED_QUEUE_MAX,
  PERSISTED_UNSHUFFLED_MAX,
  persistPlayer,
  POSITION_SAVE_INTERVAL_MS,
  readPersistedPlayer,
  toPersisted,
} from './player-persistence.js';
import {
  createClockStore,
  createPlayerReducer,
  createPlayerStore,
  initialPlayerState,
  playerReducer,
  type PlayerAction,
  type PlayerState,
} from './player-store.js';
import { connectQueueFeeder } from './queue-feeder.js';

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

  describe('with a paged source', () => {
    const CATALOGUE_SIZE = 100_000;
    const songs = (from: number, count: number) => Array.from({ length: count }, (_, i) => makeSong(from + i));
    const catalogue: SongSource = { kind: 'catalogue', order: 'newest' };
    const reducer = createPlayerReducer(() => 0.5);
    const run = (state: PlayerState, ...actions: PlayerAction[]) => actions.reduce(reducer, state);
    /** The next page of the 100 000 songs, as the server would answer it after `after` songs. */
    const pageAfter = (after: number): SongPage => ({
      items: songs(after + 1, 50),
      nextCursor: `o${after + 50}`,
      total: CATALOGUE_SIZE,
      seed: null,
    });
    /** Pages in and plays through them, as a long listening session does (each time to 10 songs before the end). */
    function listen(state: PlayerState, pages: number): PlayerState {
      let next = state;
      for (let i = 0; i < pages; i += 1) {
        const after = Number(next.feed?.cursor?.slice(1) ?? 0);
        const loaded = { type: 'pageLoaded', feedKey: next.feedKey, after: next.feed?.cursor ?? null } as const;
        next = run(next, { ...loaded, page: pageAfter(after) }, { type: 'jumpTo', index: next.queue.length + 40 });
      }
      return next;
    }
    const start = (loaded: number, index: number): PlayerState =>
      run(initialPlayerState, {
        type: 'playFrom',
        start: { source: catalogue, songs: songs(1, loaded), nextCursor: `o${loaded}`, index },
      });

    it('stays under a size bound with a 100 000-song source, however much of it was loaded and played', () => {
      const songSize = JSON.stringify(makeSong(CATALOGUE_SIZE)).length;
      const bound = (PERSISTED_QUEUE_MAX + PERSISTED_UNSHUFFLED_MAX) * (songSize + 8) + 2_000;
      // A list scrolled through 20 000 songs, a song in its middle chosen, then shuffle turned on.
      const scrolled = run(start(20_000, 10_000), { type: 'toggleShuffle' });
      const shuffled = listen(scrolled, 40);
      const saved = toPersisted(shuffled);
      expect(saved.queue.length).toBeLessThanOrEqual(PERSISTED_QUEUE_MAX);
      expect(saved.unshuffled?.ids.length).toBeLessThanOrEqual(PERSISTED_UNSHUFFLED_MAX);
      expect(saved.songs.length).toBeLessThanOrEqual(PERSISTED_QUEUE_MAX + PERSISTED_UNSHUFFLED_MAX);
      expect(JSON.stringify(saved).length).toBeLessThan(bound);
      expect(saved.queue[saved.index]).toBe(shuffled.current.id);

      const unshuffled = listen(start(50, 0), 400);
      expect(unshuffled.queue.length).toBeLessThan(200);
      expect(JSON.stringify(toPersisted(unshuffled)).length).toBeLessThan(bound);
    });

    it('restores the queue with its source and cursor, and the restored queue fetches ahead as usual', async () => {
      const api = mockApi({
        'songs.page': (request) => pageAfter(Number(new URL(request.url).searchParams.get('cursor')?.slice(1))),
      });
      const state = run(start(60, 55), { type: 'setRepeat', repeat: 'all' });
      localStorage.setItem(AppStorageKeys.player, JSON.stringify(toPersisted(state)));
      const restored = readPersistedPlayer().state;
      expect(restored.queue).toEqual(state.queue.slice(60 - PERSISTED_QUEUE_MAX > 0 ? 60 - PERSISTED_QUEUE_MAX : 0));
      expect(restored.current.id).toBe(56);
      expect(restored.playing).toBe(false);
      expect(restored.feed).toEqual({ source: catalogue, more: true, cursor: 'o60', partial: false });

      const store = createPlayerStore(restored);
      connectQueueFeeder(store);
      await vi.advanceTimersByTimeAsync(0);
      expect(api.requests('songs.page').map((request) => new URL(request.url).searchParams.get('cursor'))).toEqual([
        'o60',
      ]);
      expect(store.getState().queue).toHaveLength(110);
    });

    it('restores a queue playing from the catalogue sorted by a column (issue 26), and refuses an unknown order', () => {
      const sorted: SongSource = { kind: 'catalogue', order: 'duration', direction: 'desc' };
      const state = run(initialPlayerState, {
        type: 'playFrom',
        start: { source: sorted, songs: songs(1, 10), nextCursor: 'd10', index: 3 },
      });
      localStorage.setItem(AppStorageKeys.player, JSON.stringify(toPersisted(state)));
      expect(readPersistedPlayer().state.feed).toEqual({ source: sorted, more: true, cursor: 'd10', partial: false });
      const saved = toPersisted(state);
      for (const source of [
        { ...sorted, order: 'loudness' },
        { ...sorted, direction: 'sideways' },
      ]) {
        localStorage.setItem(AppStorageKeys.player, JSON.stringify({ ...saved, feed: { ...saved.feed, source } }));
        expect(readPersistedPlayer().state).toBe(initialPlayerState);
      }
    });

    it('a window cut short of the loaded songs ends the saved list there (its cursor would skip the rest)', () => {
      const saved = toPersisted(start(1000, 10));
      expect(saved.queue).toHaveLength(PERSISTED_QUEUE_MAX);
      expect(saved.queue[saved.index]).toBe(11);
      expect(saved.feed).toMatchObject({ more: false, cursor: null, partial: true });
    });

    it('still reads a queue saved before the queue held ids', () => {
      const legacy = {
        queue: songs(1, 3),
        index: 1,
        shuffle: false,
        unshuffled: null,
        repeat: 'one',
        volume: 0.5,
        muted: false,
      };
      localStorage.setItem(AppStorageKeys.player, JSON.stringify(legacy));
      const { state } = readPersistedPlayer();
      expect(state.queue).toEqual([1, 2, 3]);
      expect(state.current.id).toBe(2);
      expect(state.feed).toBeNull();
      expect(state.repeat).toBe('one');
    });
  });
});
