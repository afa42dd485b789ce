import type { Song, SongPage } from '@tonearm/contract';
import { describe, expect, it, vi } from 'vitest';
import { makeSong } from '../test/fixtures.js';
import { createAudioDeck } from './audio-deck.js';
import { connectAudioEngine, createPlayerRuntime, PRELOAD_LEAD_SECONDS, trackRecentSongs } from './player-runtime.js';
import {
  clockReducer,
  createPlayerReducer,
  createPlayerStore,
  initialPlayerState,
  playerReducer,
  songAfterCurrent,
  upcomingSongs,
  type PlayerAction,
  type PlayerState,
} from './player-store.js';
import { QUEUE_HISTORY_MAX, SONGS_SLACK } from './queue-edits.js';
import { WELCOME_SONG } from './welcome-song.js';

const songs = [makeSong(1), makeSong(2), makeSong(3)];
const ids = (state: PlayerState): number[] => [...state.queue];

function playing(index: number, list = songs): PlayerState {
  return playerReducer(initialPlayerState, { type: 'playList', songs: list, index });
}

function run(state: PlayerState, ...actions: PlayerAction[]): PlayerState {
  return actions.reduce(playerReducer, state);
}

describe('playerReducer', () => {
  it('starts with the welcome song of SPEC §3, paused', () => {
    expect(initialPlayerState.current).toBe(WELCOME_SONG);
    expect(WELCOME_SONG).toMatchObject({ id: 0, genre: 'Melody', name: 'Welcome', artistName: 'Tonearm' });
    expect(WELCOME_SONG.link).not.toBe('');
    expect(WELCOME_SONG.imgLink).not.toBe('');
    expect(initialPlayerState.playing).toBe(false);
    expect(initialPlayerState.repeat).toBe('off');
    expect(initialPlayerState.shuffle).toBe(false);
  });

  it('choosing a song sets the list, the index and the current song and marks it playing', () => {
    const state = playing(1);
    expect(ids(state)).toEqual([1, 2, 3]);
    expect(state.index).toBe(1);
    expect(state.current.id).toBe(2);
    expect(state.playing).toBe(true);
    expect(state.trackKey).toBe(initialPlayerState.trackKey + 1);
  });

  it('toggles between playing and paused', () => {
    const paused = playerReducer(playing(0), { type: 'toggle' });
    expect(paused.playing).toBe(false);
    expect(playerReducer(paused, { type: 'toggle' }).playing).toBe(true);
  });

  it('next and previous walk the list; next wraps at the end, previous stops at the start', () => {
    expect(playerReducer(playing(0), { type: 'next' }).current.id).toBe(2);
    expect(playerReducer(playing(2), { type: 'next' }).current.id).toBe(1);
    expect(playerReducer(playing(2), { type: 'previous' }).current.id).toBe(2);
    expect(playerReducer(playing(0), { type: 'previous' }).current.id).toBe(1);
  });

  it('clamps the volume and un-mutes when the volume is raised', () => {
    const muted = playerReducer(initialPlayerState, { type: 'toggleMute' });
    expect(muted.muted).toBe(true);
    const louder = playerReducer(muted, { type: 'setVolume', volume: 1.7 });
    expect(louder.volume).toBe(1);
    expect(louder.muted).toBe(false);
    expect(playerReducer(initialPlayerState, { type: 'setVolume', volume: -1 }).volume).toBe(0);
  });

  it('reset returns to the welcome song, paused, keeping the volume', () => {
    const quiet = playerReducer(playing(1), { type: 'setVolume', volume: 0.3 });
    const reset = playerReducer(quiet, { type: 'reset' });
    expect(reset.current).toBe(WELCOME_SONG);
    expect(reset.playing).toBe(false);
    expect(reset.volume).toBe(0.3);
  });
});

describe('repeat', () => {
  it('off: moves on when a song ends and stops after the last one', () => {
    const next = playerReducer(playing(1), { type: 'ended' });
    expect(next.current.id).toBe(3);
    expect(next.playing).toBe(true);
    const done = playerReducer(playing(2), { type: 'ended' });
    expect(done.current.id).toBe(3);
    expect(done.playing).toBe(false);
    expect(songAfterCurrent(playing(2))).toBeNull();
  });

  it('all: the first song follows the last', () => {
    const state = run(playing(2), { type: 'setRepeat', repeat: 'all' }, { type: 'ended' });
    expect(state.current.id).toBe(1);
    expect(state.playing).toBe(true);
    expect(songAfterCurrent(run(playing(2), { type: 'setRepeat', repeat: 'all' }))?.id).toBe(1);
  });

  it('one: the same song starts again (a new track key), and next still moves on', () => {
    const before = run(playing(1), { type: 'setRepeat', repeat: 'one' });
    const again = playerReducer(before, { type: 'ended' });
    expect(again.current.id).toBe(2);
    expect(again.trackKey).toBe(before.trackKey + 1);
    expect(songAfterCurrent(before)?.id).toBe(2);
    expect(playerReducer(before, { type: 'next' }).current.id).toBe(3);
  });

  it('cycles off → all → one → off', () => {
    const modes = [1, 2, 3].map(
      (n) => run(initialPlayerState, ...Array.from({ length: n }, () => ({ type: 'cycleRepeat' }) as const)).repeat,
    );
    expect(modes).toEqual(['all', 'one', 'off']);
  });
});

describe('shuffle', () => {
  const many = Array.from({ length: 6 }, (_, i) => makeSong(i + 1));
  // random() = 0 turns Fisher–Yates into a rotation: a predictable but different order.
  const reducer = createPlayerReducer(() => 0);

  it('keeps the current song playing first and shuffles the rest', () => {
    const start = reducer(initialPlayerState, { type: 'playList', songs: many, index: 2 });
    const shuffled = reducer(start, { type: 'toggleShuffle' });
    expect(shuffled.shuffle).toBe(true);
    expect(shuffled.current.id).toBe(3);
    expect(shuffled.index).toBe(0);
    expect(shuffled.trackKey).toBe(start.trackKey);
    expect(ids(shuffled)).toEqual([3, 2, 4, 5, 6, 1]);
    expect([...ids(shuffled)].sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('turning it off returns to the list order at the current song, keeping queue edits', () => {
    const shuffled = [
      { type: 'playList', songs: many, index: 2 },
      { type: 'toggleShuffle' },
      { type: 'next' },
      { type: 'addToQueue', song: makeSong(9) },
      { type: 'toggleShuffle' },
    ] satisfies PlayerAction[];
    const state = shuffled.reduce(reducer, initialPlayerState);
    expect(state.shuffle).toBe(false);
    expect(ids(state)).toEqual([1, 2, 3, 4, 5, 6, 9]);
    expect(state.current.id).toBe(2);
    expect(state.index).toBe(1);
  });

  it('choosing a song while shuffle is on starts it and shuffles the rest of its list', () => {
    const on = reducer(initialPlayerState, { type: 'toggleShuffle' });
    const state = reducer(on, { type: 'playList', songs: many, index: 4 });
    expect(state.current.id).toBe(5);
    expect(state.queue[0]).toBe(5);
    expect(state.unshuffled?.ids).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('queue edits', () => {
  it('play next puts a song right after the current one, taking it out of its old place', () => {
    const state = run(playing(0), { type: 'playNext', song: makeSong(3) });
    expect(ids(state)).toEqual([1, 3, 2]);
    expect(ids(run(playing(0), { type: 'playNext', song: makeSong(7) }))).toEqual([1, 7, 2, 3]);
  });

  it('add to queue appends; the current song is neither moved nor duplicated', () => {
    expect(ids(run(playing(1), { type: 'addToQueue', song: makeSong(8) }))).toEqual([1, 2, 3, 8]);
    expect(ids(run(playing(1), { type: 'addToQueue', song: makeSong(1) }))).toEqual([2, 3, 1]);
    expect(run(playing(1), { type: 'addToQueue', song: makeSong(2) })).toEqual(playing(1));
  });

  it('removes queued songs but never the one playing', () => {
    const state = run(playing(1), { type: 'removeFromQueue', index: 0 });
    expect(ids(state)).toEqual([2, 3]);
    expect(state.index).toBe(0);
    expect(state.current.id).toBe(2);
    expect(run(playing(1), { type: 'removeFromQueue', index: 1 })).toEqual(playing(1));
  });

  it('moves songs and follows the current one', () => {
    const state = run(playing(0, [...songs, makeSong(4)]), { type: 'moveInQueue', from: 3, to: 1 });
    expect(ids(state)).toEqual([1, 4, 2, 3]);
    const current = run(playing(0), { type: 'moveInQueue', from: 0, to: 2 });
    expect(ids(current)).toEqual([2, 3, 1]);
    expect(current.index).toBe(2);
  });

  it('jumps to a queued song and lists what comes next', () => {
    const state = run(playing(0), { type: 'jumpTo', index: 2 });
    expect(state.current.id).toBe(3);
    expect(upcomingSongs(playing(0)).map(({ song, index }) => [song.id, index])).toEqual([
      [2, 1],
      [3, 2],
    ]);
  });

  it('updates every queued copy of a song (e.g. a like) without restarting it', () => {
    const state = run(playing(1), { type: 'updateSong', songId: 2, changes: { likeSong: true } });
    expect(state.current.likeSong).toBe(true);
    expect(state.songs.get(2)?.likeSong).toBe(true);
    expect(state.trackKey).toBe(playing(1).trackKey);
  });
});

describe('a queue fed page by page', () => {
  const source = { kind: 'liked' } as const;
  const list = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => makeSong(from + i));
  const page = (items: Song[], nextCursor: string | null): SongPage => ({ items, nextCursor, total: 1000, seed: null });
  const fed = (songs: Song[], index: number, nextCursor: string | null = 'c1'): PlayerState =>
    playerReducer(initialPlayerState, { type: 'playFrom', start: { source, songs, nextCursor, index } });
  const loaded = (state: PlayerState, items: Song[], after: string | null, nextCursor: string | null): PlayerState =>
    playerReducer(state, { type: 'pageLoaded', feedKey: state.feedKey, after, page: page(items, nextCursor) });

  it('holds ids and their songs, with the source and the next cursor', () => {
    const state = fed(list(1, 3), 1);
    expect(state.queue).toEqual([1, 2, 3]);
    expect([...state.songs.keys()].sort()).toEqual([1, 2, 3]);
    expect(state.feed).toEqual({ source, more: true, cursor: 'c1', partial: false });
    expect(state.current.id).toBe(2);
  });

  it('appends a page once: an older feed, or a page already appended, is dropped', () => {
    const state = fed(list(1, 3), 0);
    const next = loaded(state, list(4, 5), 'c1', 'c2');
    expect(next.queue).toEqual([1, 2, 3, 4, 5]);
    expect(next.feed).toMatchObject({ cursor: 'c2', more: true });
    expect(loaded(next, list(4, 5), 'c1', 'c2')).toBe(next);
    const stale = {
      type: 'pageLoaded',
      feedKey: state.feedKey - 1,
      after: 'c1',
      page: page(list(4, 5), 'c2'),
    } as const;
    expect(playerReducer(state, stale)).toBe(state);
  });

  it('queues each song once: songs still to come are skipped, songs already played move to the end', () => {
    const state = run(fed(list(1, 4), 2), { type: 'addToQueue', song: makeSong(9) });
    const next = loaded(state, [makeSong(1), makeSong(9), makeSong(3), makeSong(5)], 'c1', null);
    expect(next.queue).toEqual([2, 3, 4, 9, 1, 5]);
    expect(next.current.id).toBe(3);
    expect(next.index).toBe(1);
  });

  it(`keeps ${QUEUE_HISTORY_MAX} played songs behind the current one, ids and songs alike`, () => {
    let state = fed(list(1, 50), 0);
    for (let from = 51; from < 1000; from += 50) {
      state = loaded(state, list(from, from + 49), state.feed?.cursor ?? null, `c${from}`);
      state = playerReducer(state, { type: 'jumpTo', index: state.queue.length - 1 });
    }
    expect(state.current.id).toBe(1000);
    expect(state.index).toBe(QUEUE_HISTORY_MAX);
    expect(state.queue).toHaveLength(QUEUE_HISTORY_MAX + 1);
    expect(state.queue.every((id) => state.songs.has(id))).toBe(true);
    expect(state.songs.size).toBeLessThanOrEqual(state.queue.length + SONGS_SLACK);
    expect(state.feed?.partial).toBe(true);
    expect(playerReducer(state, { type: 'previous' }).current.id).toBe(999);
  });

  it('a fixed list is kept whole however far it plays', () => {
    const state = run(playing(0, list(1, 500)), { type: 'jumpTo', index: 499 });
    expect(state.queue).toHaveLength(500);
  });

  it('a like updates the one copy of a song the queue holds', () => {
    const liked = run(fed(list(1, 3), 0), { type: 'updateSong', songId: 2, changes: { likeSong: true } });
    expect(liked.songs.get(2)?.likeSong).toBe(true);
    expect(upcomingSongs(liked)[0]?.song.likeSong).toBe(true);
  });

  it('a last page with nothing new ends the list under a waiting Next, which wraps to the first song', () => {
    const state = run(fed(list(1, 2), 1), { type: 'next' });
    expect(state.waiting).toBe('next');
    const next = loaded(state, [makeSong(2)], 'c1', null);
    expect(next.waiting).toBeNull();
    expect(next.current.id).toBe(1);
  });
});

describe('clockReducer', () => {
  it('treats an unknown duration as 0 and keeps the same object for no change', () => {
    const clock = { position: 0, duration: 0 };
    expect(clockReducer(clock, { type: 'duration', duration: Number.NaN })).toBe(clock);
    expect(clockReducer(clock, { type: 'time', position: 3 })).toEqual({ position: 3, duration: 0 });
    expect(clockReducer(clock, { type: 'reset', position: 12 })).toEqual({ position: 12, duration: 0 });
  });
});

describe('trackRecentSongs', () => {
  it('remembers every song that starts, but not the welcome song', () => {
    const store = createPlayerStore();
    const remember = vi.fn();
    trackRecentSongs(store, remember);
    store.dispatch({ type: 'playList', songs, index: 0 });
    store.dispatch({ type: 'toggle' });
    store.dispatch({ type: 'next' });
    store.dispatch({ type: 'reset' });
    expect(remember.mock.calls.map(([song]) => (song as { id: number }).id)).toEqual([1, 2]);
  });
});

describe('audio engine', () => {
  function connect() {
    const deck = createAudioDeck();
    const plays = deck.elements.map((element) => vi.spyOn(element, 'play'));
    const runtime = createPlayerRuntime(deck);
    const onError = vi.fn();
    const disconnect = connectAudioEngine(runtime, onError);
    return { deck, runtime, plays, onError, disconnect };
  }

  it('loads the chosen song into the active element and follows its events', () => {
    const { deck, runtime, plays, disconnect } = connect();
    const first = deck.active;
    expect(first.getAttribute('src')).toBe(WELCOME_SONG.link);
    expect(first.getAttribute('data-testid')).toBe('player-audio');
    expect(plays[0]).not.toHaveBeenCalled();

    runtime.controls.playList(songs, 0);
    expect(deck.active.getAttribute('src')).toBe('/media/audio/1.mp3');
    expect(plays[0]).toHaveBeenCalledTimes(1);
    expect(runtime.clock.getState().duration).toBe(180);

    runtime.controls.setVolume(0.25);
    expect(deck.active.volume).toBe(0.25);
    runtime.controls.toggleMute();
    expect(deck.active.muted).toBe(true);

    runtime.controls.seek(42);
    expect(deck.active.currentTime).toBe(42);
    expect(runtime.clock.getState().position).toBe(42);
    disconnect();
  });

  it('preloads the next song near the end and swaps to it when the current one ends', () => {
    const { deck, runtime } = connect();
    runtime.controls.playList(songs, 0);
    const [first, second] = [deck.active, deck.standby];
    expect(second.getAttribute('src')).toBeNull();

    // 180 s song: the next one loads once fewer than PRELOAD_LEAD_SECONDS remain.
    runtime.controls.seek(180 - PRELOAD_LEAD_SECONDS - 5);
    first.dispatchEvent(new Event('timeupdate'));
    expect(second.getAttribute('src')).toBeNull();
    runtime.controls.seek(180 - PRELOAD_LEAD_SECONDS + 5);
    first.dispatchEvent(new Event('timeupdate'));
    expect(second.getAttribute('src')).toBe('/media/audio/2.mp3');
    expect(second.preload).toBe('auto');

    first.dispatchEvent(new Event('ended'));
    expect(runtime.store.getState().current.id).toBe(2);
    expect(deck.active).toBe(second);
    expect(second.getAttribute('data-testid')).toBe('player-audio');
    expect(first.getAttribute('data-testid')).toBe('player-audio-next');
    // Events of the element that stepped back no longer reach the store.
    first.dispatchEvent(new Event('ended'));
    expect(runtime.store.getState().current.id).toBe(2);
  });

  it('loads directly when the chosen song was not the preloaded one', () => {
    const { deck, runtime } = connect();
    runtime.controls.playList(songs, 0);
    const first = deck.active;
    runtime.controls.jumpTo(2);
    expect(deck.active).toBe(first);
    expect(first.getAttribute('src')).toBe('/media/audio/3.mp3');
  });

  it('repeat one rewinds the same element instead of fetching the song again', () => {
    const { deck, runtime, plays } = connect();
    runtime.controls.playList(songs, 1);
    runtime.controls.setRepeat('one');
    const element = deck.active;
    runtime.controls.seek(100);
    const playsBefore = plays[0]?.mock.calls.length ?? 0;
    element.dispatchEvent(new Event('ended'));
    expect(deck.active).toBe(element);
    expect(element.getAttribute('src')).toBe('/media/audio/2.mp3');
    expect(element.currentTime).toBe(0);
    expect(plays[0]?.mock.calls.length).toBeGreaterThan(playsBefore);
  });

  it('reports a song that cannot be played and pauses, but not while nothing was asked to play', () => {
    const { deck, runtime, onError } = connect();
    deck.active.dispatchEvent(new Event('error'));
    expect(onError).not.toHaveBeenCalled();
    runtime.controls.playList(songs, 2);
    deck.active.dispatchEvent(new Event('error'));
    expect(onError).toHaveBeenCalledWith(songs[2]);
    expect(runtime.store.getState().playing).toBe(false);
  });

  /**
   * A deck whose elements behave as a browser's do here: play() and pause() change `paused` at once, and their 'play'
   * and 'pause' events come later (`deliver` sends those waiting, and the ones they cause, in order).
   */
  function connectEchoing() {
    const deck = createAudioDeck();
    const waiting: [HTMLAudioElement, string][] = [];
    for (const element of deck.elements) {
      let paused = true;
      Object.defineProperty(element, 'paused', { get: () => paused });
      vi.spyOn(element, 'play').mockImplementation(() => {
        paused = false;
        waiting.push([element, 'play']);
        return Promise.resolve();
      });
      vi.spyOn(element, 'pause').mockImplementation(() => {
        paused = true;
        waiting.push([element, 'pause']);
      });
    }
    const runtime = createPlayerRuntime(deck);
    connectAudioEngine(runtime, vi.fn());
    const deliver = () => {
      // Bounded: an echo that causes another echo would otherwise go on for ever.
      for (let sent = 0; waiting.length > 0 && sent < 20; sent += 1) {
        const [element, type] = waiting.shift() ?? [];
        element?.dispatchEvent(new Event(type ?? ''));
      }
      return waiting.length;
    };
    return { deck, runtime, deliver };
  }

  it('keeps the last choice when play and pause follow each other faster than their events', () => {
    const { deck, runtime, deliver } = connectEchoing();
    runtime.controls.playList(songs, 0);
    runtime.controls.pause();
    runtime.controls.play();
    runtime.controls.pause();
    expect(deliver()).toBe(0);
    expect(runtime.store.getState().playing).toBe(false);
    expect(deck.active.paused).toBe(true);

    runtime.controls.play();
    runtime.controls.pause();
    runtime.controls.play();
    expect(deliver()).toBe(0);
    expect(runtime.store.getState().playing).toBe(true);
    expect(deck.active.paused).toBe(false);
  });

  it('follows playback paused or resumed outside the app (a headset button, the media keys)', () => {
    const { deck, runtime, deliver } = connectEchoing();
    runtime.controls.playList(songs, 0);
    deliver();
    // The browser pauses the element itself, then tells.
    deck.active.pause();
    expect(deliver()).toBe(0);
    expect(runtime.store.getState().playing).toBe(false);
    void deck.active.play();
    expect(deliver()).toBe(0);
    expect(runtime.store.getState().playing).toBe(true);
  });

  it('starts a restored song at its saved position', () => {
    const deck = createAudioDeck();
    const runtime = createPlayerRuntime(deck, {
      store: createPlayerStore({ ...playing(1), playing: false }),
      startPosition: 37,
    });
    connectAudioEngine(runtime, vi.fn(), 37);
    expect(deck.active.getAttribute('src')).toBe('/media/audio/2.mp3');
    expect(runtime.clock.getState().position).toBe(37);
    expect(deck.active.currentTime).toBe(37);
  });
});
