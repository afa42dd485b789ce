import { describe, expect, it } from 'vitest';
import {
  BUFFER_AHEAD_SECONDS,
  BUFFER_BEHIND_SECONDS,
  gaplessLink,
  seekTarget,
  songPosition,
  staleRange,
  trackIndexAt,
  wantsMore,
} from './buffer-plan.js';

const tracks = [
  { song: 'a', start: 0, from: 0 },
  { song: 'b', start: 183.25, from: 0 },
];

describe('the gapless stream appends', () => {
  it('only while less than the lead lies ahead of the playhead', () => {
    expect(wantsMore(10, 0)).toBe(true);
    expect(wantsMore(BUFFER_AHEAD_SECONDS, 0)).toBe(false);
    expect(wantsMore(100 + BUFFER_AHEAD_SECONDS - 1, 100)).toBe(true);
  });

  it('and removes what lies more than BUFFER_BEHIND_SECONDS behind it, so memory stays bounded', () => {
    expect(staleRange([{ start: 0, end: 50 }], 5)).toBeNull();
    expect(staleRange([{ start: 0, end: 3600 }], 600)).toEqual({ start: 0, end: 600 - BUFFER_BEHIND_SECONDS });
    expect(staleRange([], 600)).toBeNull();
  });
});

describe('the timeline of songs played back to back', () => {
  it('says which song plays at a media time, and where in it', () => {
    expect(trackIndexAt(tracks, 10)).toBe(0);
    expect(trackIndexAt(tracks, 183.25)).toBe(1);
    expect(songPosition({ song: 'a', start: 0, from: 92.5 }, 10)).toBe(102.5);
    expect(songPosition({ song: 'b', start: 183.25, from: 0 }, 190)).toBeCloseTo(6.75, 10);
    // A stream fetched from 92.5 s is placed at media time 92.5 (timestampOffset): the element's time is the song's.
    expect(songPosition({ song: 'a', start: 92.5, from: 92.5 }, 100)).toBe(100);
    expect(songPosition({ song: 'a', start: 92.5, from: 92.5 }, 0)).toBe(92.5);
  });

  it('seeks within what is held, and asks for a new stream otherwise', () => {
    const held = [{ start: 40, end: 100 }];
    expect(seekTarget({ song: 'a', start: 0, from: 0 }, 60, held)).toBe(60);
    expect(seekTarget({ song: 'a', start: 0, from: 0 }, 10, held)).toBeNull();
    expect(seekTarget({ song: 'a', start: 0, from: 0 }, 200, held)).toBeNull();
    expect(seekTarget({ song: 'a', start: 0, from: 50 }, 20, [{ start: 0, end: 100 }])).toBeNull();
    expect(seekTarget({ song: 'a', start: 50, from: 50 }, 60, [{ start: 50, end: 100 }])).toBe(60);
  });

  it('streams from an offset in whole milliseconds', () => {
    expect(gaplessLink('/media/audio/a.mp3')).toBe('/media/audio/a.mp3?format=gapless');
    expect(gaplessLink('/media/audio/a.mp3', 92.5004)).toBe('/media/audio/a.mp3?format=gapless&offset=92500');
  });
});
