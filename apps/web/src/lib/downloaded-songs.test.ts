import type { Song } from '@tonearm/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  addDownloadedSong,
  forgetDownloadedSong,
  activateDownloads,
  downloadsOwner,
  parkDownloads,
  readDownloadedSongs,
  removeDownloadedSong,
  storeDownloadedSong,
} from './downloaded-songs.js';
import { makeSong } from '../test/fixtures.js';

const ids = (list: Song[]): number[] => list.map((song) => song.id);

describe('downloaded list', () => {
  it('adds a new song in front', () => {
    expect(ids(addDownloadedSong([makeSong(1)], makeSong(2)))).toEqual([2, 1]);
  });

  it('moves a song already present to the front', () => {
    expect(ids(addDownloadedSong([makeSong(1), makeSong(2), makeSong(3)], makeSong(2)))).toEqual([2, 1, 3]);
  });

  it('has no size limit', () => {
    const many = Array.from({ length: 50 }, (_, i) => makeSong(i + 1));
    expect(addDownloadedSong(many, makeSong(100))).toHaveLength(51);
  });

  it('removes by id and ignores unknown ids', () => {
    const list = [makeSong(1), makeSong(2), makeSong(3)];
    expect(ids(removeDownloadedSong(list, 2))).toEqual([1, 3]);
    expect(ids(removeDownloadedSong(list, 42))).toEqual([1, 2, 3]);
  });

  describe('in local storage', () => {
    beforeEach(() => {
      localStorage.clear();
    });

    it('keeps the list under the `downloadedSong` key', () => {
      storeDownloadedSong(makeSong(1));
      storeDownloadedSong(makeSong(2));
      storeDownloadedSong(makeSong(1));
      forgetDownloadedSong(2);
      expect(ids(JSON.parse(localStorage.getItem('downloadedSong') ?? '[]') as Song[])).toEqual([1]);
      expect(ids(readDownloadedSongs())).toEqual([1]);
    });
  });

  describe('per user', () => {
    beforeEach(() => {
      localStorage.clear();
    });
    const stored = () => localStorage.getItem('downloadedSong');

    it('keeps the signed-in user’s list under `downloadedSong` and each other user’s aside', () => {
      activateDownloads(1);
      expect(downloadsOwner()).toBe(1);
      storeDownloadedSong(makeSong(10));
      parkDownloads();
      expect(stored()).toBeNull();
      expect(downloadsOwner()).toBeNull();

      activateDownloads(2);
      expect(readDownloadedSongs()).toEqual([]);
      storeDownloadedSong(makeSong(20));
      // Switching without a logout in between still puts the previous user's list aside.
      activateDownloads(1);
      expect(ids(readDownloadedSongs())).toEqual([10]);
      activateDownloads(2);
      expect(ids(readDownloadedSongs())).toEqual([20]);
      activateDownloads(2);
      expect(ids(readDownloadedSongs())).toEqual([20]);
    });

    it('adopts a list without an owner only when asked (start-up), and otherwise drops it', () => {
      localStorage.setItem('downloadedSong', JSON.stringify([makeSong(5)]));
      expect(activateDownloads(3)).toBe(false);
      expect(stored()).toBeNull();

      localStorage.setItem('downloadedSong', JSON.stringify([makeSong(5)]));
      localStorage.removeItem('tonearm.downloadsOwner');
      expect(activateDownloads(4, { adoptUnowned: true })).toBe(true);
      expect(ids(readDownloadedSongs())).toEqual([5]);
      expect(downloadsOwner()).toBe(4);
      parkDownloads();
      activateDownloads(4);
      expect(ids(readDownloadedSongs())).toEqual([5]);
    });
  });
});
