import { describe, expect, it } from 'vitest';
import {
  ALERT_HIDE_MS,
  AUTH_CHECK_INTERVAL_MS,
  ClientMessages,
  GENRES,
  PLAYLIST_POPUP_CLOSE_MS,
  PREMIUM_PRELOAD_DELAY_MS,
  PlaylistFormFields,
  RECENT_SONGS_MAX,
  RegisterRequest,
  SONG_LOAD_MAX_FAILURES,
  SONG_LOAD_RETRY_MS,
  StorageKeys,
  isGenre,
} from './index.js';

describe('SPEC constants', () => {
  it('keeps the business constants of SPEC §9', () => {
    expect(RECENT_SONGS_MAX).toBe(10);
    expect(ALERT_HIDE_MS).toBe(3000);
    expect(AUTH_CHECK_INTERVAL_MS).toBe(300000);
    expect(SONG_LOAD_RETRY_MS).toBe(5000);
    expect(SONG_LOAD_MAX_FAILURES).toBe(5);
    expect(PREMIUM_PRELOAD_DELAY_MS).toBe(2000);
    expect(PLAYLIST_POPUP_CLOSE_MS).toBe(1000);
  });

  it('uses the local-storage keys of SPEC §3', () => {
    expect(StorageKeys).toEqual({ user: 'userdata', recentSongs: 'song', downloadedSongs: 'downloadedSong' });
  });

  it('lists the 27 genres of SPEC §5 in order', () => {
    expect(GENRES).toHaveLength(27);
    expect(GENRES[0]).toBe('Pop');
    expect(GENRES[26]).toBe('Experimental');
    expect(isGenre('Hip Hop / Rap')).toBe(true);
    expect(isGenre('Melody')).toBe(false);
  });

  it('reproduces the SPEC §8 error catalogue word for word', () => {
    expect(Object.values(ClientMessages)).toEqual(
      expect.arrayContaining([
        'Error fetching artists',
        'Error fetching songs. Please try again later.',
        'Please upload both song and image files.',
        'Failed to add song',
        'Error adding song',
        'Failed to fetch playlists',
        'Failed to load playlists.',
        'Please select a playlist.',
        'Failed to add song to playlist.',
        'Song not deleted',
        'Playlist Not Found',
      ]),
    );
  });
});

describe('request schemas', () => {
  it('names the field of a bad registration', () => {
    const result = RegisterRequest.safeParse({ username: 'ab', email: 'x@y.z', password: 'long-enough' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['username']);
  });

  it('parses playlist songs as a de-duplicated JSON id array and refuses anything else', () => {
    expect(PlaylistFormFields.parse({ name: 'Mix', songs: '[3,1,3]' }).songs).toEqual([3, 1]);
    expect(PlaylistFormFields.safeParse({ name: 'Mix', songs: '[1,"x"]' }).success).toBe(false);
    expect(PlaylistFormFields.safeParse({ name: 'Mix', type: 'x'.repeat(41) }).success).toBe(false);
  });
});
