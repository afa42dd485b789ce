import type { ListenReport } from '@tonearm/contract';
import { describe, expect, it } from 'vitest';
import { makeSong } from '../test/fixtures.js';
import { countListens } from './listen-counter.js';
import { createClockStore, createPlayerStore, type ClockStore } from './player-store.js';

const song = makeSong(1, { durationMs: 200_000 });
const long = makeSong(2, { durationMs: 900_000 });
const short = makeSong(3, { durationMs: 20_000 });

/** Plays `seconds` of listening as the audio element's time updates would (quarter-second steps). */
function listen(clock: ClockStore, seconds: number): void {
  const from = clock.getState().position;
  for (let step = 1; step <= seconds * 4; step += 1) clock.dispatch({ type: 'time', position: from + step / 4 });
}

function setUp() {
  const store = createPlayerStore();
  const clock = createClockStore();
  const reports: { listen: ListenReport; keepalive: boolean }[] = [];
  const stop = countListens(
    store,
    clock,
    (listen, keepalive) => reports.push({ listen, keepalive }),
    () => new Date('2026-11-28T10:00:00.000Z'),
  );
  const start = (songs = [song, long, short], index = 0) => {
    store.dispatch({ type: 'playList', songs, index });
    clock.dispatch({ type: 'reset' });
  };
  return { store, clock, reports, stop, start };
}

describe('counting listens', () => {
  it('reports a play as it reaches half the song, and again when it ends with the seconds heard since', () => {
    const { store, clock, reports, start } = setUp();
    start();
    listen(clock, 99);
    expect(reports).toEqual([]);
    listen(clock, 21);
    const play = { songId: 1, startedAt: '2026-11-28T10:00:00.000Z' };
    expect(reports).toEqual([{ listen: { ...play, listenedMs: 100_000 }, keepalive: false }]);
    store.dispatch({ type: 'next' });
    expect(reports).toEqual([
      { listen: { ...play, listenedMs: 100_000 }, keepalive: false },
      { listen: { ...play, listenedMs: 120_000 }, keepalive: false },
    ]);
  });

  it('ends a play reported at the mark without a second report when little more was heard', () => {
    const { store, clock, reports, start } = setUp();
    start();
    listen(clock, 100.5);
    store.dispatch({ type: 'next' });
    expect(reports.map((report) => report.listen.listenedMs)).toEqual([100_000]);
  });

  it('does not count a seek past the middle, nor time paused, nor a play under the rule', () => {
    const { store, clock, reports, start } = setUp();
    start();
    listen(clock, 10);
    clock.dispatch({ type: 'time', position: 150 });
    listen(clock, 20);
    store.dispatch({ type: 'pause' });
    listen(clock, 100);
    store.dispatch({ type: 'next' });
    expect(reports).toEqual([]);
  });

  it('counts 4 minutes of a long song, never a song of 30 seconds or less, and the play under way on stop', () => {
    const { store, clock, reports, start, stop } = setUp();
    start([long, short, song], 0);
    listen(clock, 240);
    store.dispatch({ type: 'next' });
    clock.dispatch({ type: 'reset' });
    listen(clock, 20);
    store.dispatch({ type: 'next' });
    clock.dispatch({ type: 'reset' });
    listen(clock, 101);
    stop();
    expect(reports.map(({ listen: { songId, listenedMs }, keepalive }) => ({ songId, listenedMs, keepalive }))).toEqual(
      [
        { songId: 2, listenedMs: 240_000, keepalive: false },
        { songId: 1, listenedMs: 100_000, keepalive: false },
        { songId: 1, listenedMs: 101_000, keepalive: true },
      ],
    );
  });

  it('reports with keepalive when the page goes away, and not again after', () => {
    const { store, clock, reports, start } = setUp();
    start();
    listen(clock, 110);
    window.dispatchEvent(new Event('pagehide'));
    store.dispatch({ type: 'next' });
    expect(reports.map(({ listen: { listenedMs }, keepalive }) => ({ listenedMs, keepalive }))).toEqual([
      { listenedMs: 100_000, keepalive: false },
      { listenedMs: 110_000, keepalive: true },
    ]);
  });
});
