import { describe, expect, it } from 'vitest';
import { makeArtist, makeSong } from '../../test/fixtures.js';
import { artistFromState, filterSongs } from './song-filter.js';

describe('filterSongs', () => {
  const songs = [
    makeSong(1, { name: 'Café del Mar', artistName: 'Energy 52', genre: 'Electronic / EDM' }),
    makeSong(2, { name: 'Feeling Good', artistName: 'Nina Simone', genre: 'Classical', likeSong: true }),
    makeSong(3, { name: 'Bohemian Rhapsody', artistName: 'Queen', genre: 'Rock' }),
  ];
  const ids = (list: readonly { id: number }[]): number[] => list.map((s) => s.id);

  it('returns the same list without a filter', () => {
    expect(filterSongs(songs, '  ', false)).toBe(songs);
  });

  it('matches name, artist and genre, ignoring case and accents', () => {
    expect(ids(filterSongs(songs, 'cafe', false))).toEqual([1]);
    expect(ids(filterSongs(songs, 'NINA', false))).toEqual([2]);
    expect(ids(filterSongs(songs, 'rock', false))).toEqual([3]);
  });

  it('keeps only liked songs when asked', () => {
    expect(ids(filterSongs(songs, '', true))).toEqual([2]);
    expect(ids(filterSongs(songs, 'queen', true))).toEqual([]);
  });
});

describe('artistFromState', () => {
  it('reads the artist passed with navigation', () => {
    const artist = makeArtist(4, { image: '/media/images/a.webp', songs: [1, 2] });
    expect(artistFromState({ artist })).toEqual(artist);
  });

  it('ignores missing or malformed state', () => {
    expect(artistFromState(null)).toBeNull();
    expect(artistFromState({})).toBeNull();
    expect(artistFromState({ artist: { id: '4', name: 'x' } })).toBeNull();
  });
});
