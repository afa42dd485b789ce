import type { SongLyrics } from '@tonearm/contract';
import { describe, expect, it } from 'vitest';
import { lineAt, shownAtMs } from './lyrics.js';

const lyrics = (offsetMs: number): Pick<SongLyrics, 'lines' | 'offsetMs'> => ({
  offsetMs,
  lines: [
    { startMs: 1000, text: 'One' },
    { startMs: 2000, text: 'Two' },
    { startMs: 2000, text: 'Two again' },
    { startMs: 4500, text: 'Three' },
  ],
});

describe('lineAt', () => {
  it('answers the last line whose time has come, -1 before the first', () => {
    expect(lineAt(lyrics(0), 0)).toBe(-1);
    expect(lineAt(lyrics(0), 999)).toBe(-1);
    expect(lineAt(lyrics(0), 1000)).toBe(0);
    expect(lineAt(lyrics(0), 1999)).toBe(0);
    // Two lines of one time: the later one written is the one shown.
    expect(lineAt(lyrics(0), 2000)).toBe(2);
    expect(lineAt(lyrics(0), 4499)).toBe(2);
    expect(lineAt(lyrics(0), 300_000)).toBe(3);
  });

  it('moves every line by the offset: positive sooner, negative later', () => {
    expect(lineAt(lyrics(500), 500)).toBe(0);
    expect(lineAt(lyrics(500), 499)).toBe(-1);
    expect(lineAt(lyrics(-500), 1499)).toBe(-1);
    expect(lineAt(lyrics(-500), 1500)).toBe(0);
  });

  it('stays exact over a 5-minute song: each line from its own time on, to the millisecond', () => {
    const lines = Array.from({ length: 300 }, (_, index) => ({ startMs: index * 1000, text: `Second ${index}` }));
    for (let ms = 0; ms < 300_000; ms += 250) {
      expect(lineAt({ lines, offsetMs: 0 }, ms)).toBe(Math.floor(ms / 1000));
    }
  });

  it('never shows a line before 0 (a large offset)', () => {
    expect(shownAtMs({ startMs: 100, text: 'x' }, 1000)).toBe(0);
  });
});
