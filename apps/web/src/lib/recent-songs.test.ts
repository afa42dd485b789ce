import { RECENT_SONGS_MAX, StorageKeys, type Song } from '@tonearm/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { addRecentSong, readRecentSongs, rememberRecentSong } from './recent-songs.js';
import { makeSong } from '../test/fixtures.js';

const ids = (list: Song[]): number[] => list.map((song) => song.id);

describe('addRecentSong', () => {
  it('puts a new song in front', () => {
    expect(ids(addRecentSong([makeSong(1), makeSong(2)], makeSong(3)))).toEqual([3, 1, 2]);
  });

  it('moves a song already present to the front without duplicating it', () => {
    expect(ids(addRecentSong([makeSong(1), makeSong(2), makeSong(3)], makeSong(3)))).toEqual([3, 1, 2]);
  });

  it('keeps at most RECENT_SONGS_MAX (10) songs, dropping the oldest', () => {
    expect(RECENT_SONGS_MAX).toBe(10);
    const full = Array.from({ length: 10 }, (_, i) => makeSong(i + 1));
    const next = addRecentSong(full, makeSong(99));
    expect(next).toHaveLength(10);
    expect(ids(next)).toEqual([99, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('does not change the list it was given', () => {
    const list = [makeSong(1)];
    addRecentSong(list, makeSong(2));
    expect(ids(list)).toEqual([1]);
  });
});

describe('recent songs in local storage', () => {
  beforeEach(() => {
    localStorage.clear();
  });

  it('stores the list under the `song` key', () => {
    rememberRecentSong(makeSong(1));
    rememberRecentSong(makeSong(2));
    rememberRecentSong(makeSong(1));
    expect(StorageKeys.recentSongs).toBe('song');
    expect(ids(JSON.parse(localStorage.getItem('song') ?? '[]') as Song[])).toEqual([1, 2]);
    expect(ids(readRecentSongs())).toEqual([1, 2]);
  });

  it('reads a corrupt entry as an empty list', () => {
    localStorage.setItem('song', '{not json');
    expect(readRecentSongs()).toEqual([]);
    localStorage.setItem('song', JSON.stringify([{ id: 'x' }]));
    expect(readRecentSongs()).toEqual([]);
  });
});
