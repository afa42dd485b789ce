import { RECENT_SONGS_MAX, type Song } from '@tonearm/contract';
import { isSongList } from './song-guards.js';
import { readJson, StorageKeys, writeJson } from './storage.js';

/** SPEC §4: the played song moves to the front, no duplicates, at most RECENT_SONGS_MAX entries. */
export function addRecentSong(list: readonly Song[], song: Song, max = RECENT_SONGS_MAX): Song[] {
  return [song, ...list.filter((entry) => entry.id !== song.id)].slice(0, max);
}

export function readRecentSongs(): Song[] {
  return readJson(StorageKeys.recentSongs, isSongList) ?? [];
}

export function rememberRecentSong(song: Song): void {
  writeJson(StorageKeys.recentSongs, addRecentSong(readRecentSongs(), song));
}
