import { describe, expect, it } from 'vitest';
import { makeSong } from '../test/fixtures.js';
import { nextIndex, type Advance } from './next-song.js';
import {
  createPlayerReducer,
  initialPlayerState,
  playerReducer,
  songAfterCurrent,
  type PlayerState,
  type RepeatMode,
} from './player-store.js';

const songs = [makeSong(1), makeSong(2), makeSong(3)];

function at(index: number, repeat: RepeatMode, list = songs): PlayerState {
  const started = playerReducer(initialPlayerState, { type: 'playList', songs: list, index });
  return playerReducer(started, { type: 'setRepeat', repeat });
}

/** What each of the three users of the rule does from `state`: the song id it goes to, or null when it stops. */
function outcomes(state: PlayerState) {
  const next = playerReducer(state, { type: 'next' });
  const ended = playerReducer(state, { type: 'ended' });
  return {
    next: next.current.id,
    ended: ended.playing ? ended.current.id : null,
    preload: songAfterCurrent(state)?.id ?? null,
  };
}

describe('what comes next, as next, onEnded and preloading see it', () => {
  it.each<[string, number, RepeatMode, { next: number; ended: number | null; preload: number | null }]>([
    ['repeat off, mid-queue', 1, 'off', { next: 3, ended: 3, preload: 3 }],
    ['repeat off, last song', 2, 'off', { next: 1, ended: null, preload: null }],
    ['repeat all, mid-queue', 0, 'all', { next: 2, ended: 2, preload: 2 }],
    ['repeat all, last song', 2, 'all', { next: 1, ended: 1, preload: 1 }],
    ['repeat one, mid-queue', 1, 'one', { next: 3, ended: 2, preload: 2 }],
    ['repeat one, last song', 2, 'one', { next: 1, ended: 3, preload: 3 }],
  ])('%s', (_name, index, repeat, expected) => {
    expect(outcomes(at(index, repeat))).toEqual(expected);
  });

  it.each<[RepeatMode, number | null]>([
    ['off', null],
    ['all', 5],
    ['one', 5],
  ])('a single song under repeat %s', (repeat, after) => {
    const state = at(0, repeat, [makeSong(5)]);
    expect(outcomes(state)).toEqual({ next: 5, ended: after, preload: after });
  });

  it('a song that starts again gets a new track key, so the engine reloads it', () => {
    const repeating = at(1, 'one');
    expect(playerReducer(repeating, { type: 'ended' }).trackKey).toBe(repeating.trackKey + 1);
    const single = at(0, 'off', [makeSong(5)]);
    expect(playerReducer(single, { type: 'next' }).trackKey).toBe(single.trackKey + 1);
  });

  it('stopping after the last song keeps that song current, paused', () => {
    const stopped = playerReducer(at(2, 'off'), { type: 'ended' });
    expect(stopped.current.id).toBe(3);
    expect(stopped.index).toBe(2);
    expect(stopped.playing).toBe(false);
  });

  it('shuffle plays no part: the queue already holds the shuffled order', () => {
    const reducer = createPlayerReducer(() => 0);
    const many = [...songs, makeSong(4)];
    const shuffled = reducer(reducer(initialPlayerState, { type: 'playList', songs: many, index: 1 }), {
      type: 'toggleShuffle',
    });
    const order = [...shuffled.queue];
    expect(order).not.toEqual([2, 1, 3, 4]);
    expect(reducer(shuffled, { type: 'next' }).current.id).toBe(order[1]);
    expect(reducer(shuffled, { type: 'ended' }).current.id).toBe(order[1]);
    expect(songAfterCurrent(shuffled)?.id).toBe(order[1]);
  });
});

describe('nextIndex', () => {
  const queue = (length: number): number[] => Array.from({ length }, (_, i) => i);

  it.each<[string, number, number, RepeatMode, Advance, number | null]>([
    ['next moves on', 3, 0, 'off', 'next', 1],
    ['next wraps from the last song, even with repeat off', 3, 2, 'off', 'next', 0],
    ['next moves on under repeat one', 3, 1, 'one', 'next', 2],
    ['next wraps under repeat all', 3, 2, 'all', 'next', 0],
    ['next on a single song stays on it', 1, 0, 'off', 'next', 0],
    ['an ended song is followed by the next one', 3, 0, 'off', 'ended', 1],
    ['after the last song, repeat off stops', 3, 2, 'off', 'ended', null],
    ['after the last song, repeat all starts over', 3, 2, 'all', 'ended', 0],
    ['repeat all mid-queue moves on', 3, 1, 'all', 'ended', 2],
    ['repeat one plays the same song again', 3, 1, 'one', 'ended', 1],
    ['repeat one on the last song plays it again', 3, 2, 'one', 'ended', 2],
    ['a single song, repeat off: stops', 1, 0, 'off', 'ended', null],
    ['a single song, repeat all: again', 1, 0, 'all', 'ended', 0],
    ['a single song, repeat one: again', 1, 0, 'one', 'ended', 0],
  ])('%s', (_name, length, index, repeat, advance, expected) => {
    expect(nextIndex({ queue: queue(length), index, repeat }, advance)).toBe(expected);
  });

  it.each<[string, number, RepeatMode, Advance, { more?: boolean; partial?: boolean }, number | 'wait' | null]>([
    ['next at the last loaded song waits for the page to come', 1, 'off', 'next', { more: true }, 'wait'],
    ['an ended last loaded song waits for the page, repeat off', 1, 'off', 'ended', { more: true }, 'wait'],
    ['an ended last loaded song waits for the page, repeat all', 1, 'all', 'ended', { more: true }, 'wait'],
    ['repeat one plays the song again even with a page to come', 1, 'one', 'ended', { more: true }, 1],
    ['mid-queue moves on whatever is to come', 0, 'off', 'next', { more: true, partial: true }, 1],
    ['next wraps by fetching the first page when the queue let go of it', 1, 'off', 'next', { partial: true }, 'wait'],
    ['repeat all goes round by fetching the first page too', 1, 'all', 'ended', { partial: true }, 'wait'],
    ['repeat off stops at the end of a partial queue', 1, 'off', 'ended', { partial: true }, null],
  ])('%s', (_name, index, repeat, advance, paging, expected) => {
    expect(nextIndex({ queue: queue(2), index, repeat, ...paging }, advance)).toBe(expected);
  });

  it.each<[RepeatMode, Advance]>([
    ['off', 'next'],
    ['off', 'ended'],
    ['all', 'ended'],
    ['one', 'ended'],
  ])('an empty queue has nothing next (repeat %s, %s)', (repeat, advance) => {
    expect(nextIndex({ queue: [], index: 0, repeat }, advance)).toBeNull();
  });
});
