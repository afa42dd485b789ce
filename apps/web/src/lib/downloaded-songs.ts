import type { Song } from '@tonearm/contract';
import { isSongList } from './song-guards.js';
import { readJson, StorageKeys, writeJson } from './storage.js';

/** SPEC §4: adding a song already present moves it to the front. */
export function addDownloadedSong(list: readonly Song[], song: Song): Song[] {
  return [song, ...list.filter((entry) => entry.id !== song.id)];
}

export function removeDownloadedSong(list: readonly Song[], songId: number): Song[] {
  return list.filter((entry) => entry.id !== songId);
}

export function readDownloadedSongs(): Song[] {
  return readJson(StorageKeys.downloadedSongs, isSongList) ?? [];
}

export function storeDownloadedSong(song: Song): void {
  writeJson(StorageKeys.downloadedSongs, addDownloadedSong(readDownloadedSongs(), song));
}

export function forgetDownloadedSong(songId: number): void {
  writeJson(StorageKeys.downloadedSongs, removeDownloadedSong(readDownloadedSongs(), songId));
}
