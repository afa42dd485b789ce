import type { Song } from '@tonearm/contract';
import { isSongList } from './song-guards.js';
import { AppStorageKeys, readJson, removeKey, stashedDownloadsKey, StorageKeys, writeJson } from './storage.js';

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

/*
 * Downloads belong to the person who made them. `downloadedSong` (SPEC §3) holds the list of the user signed in on
 * this browser, `tonearm.downloadsOwner` says whose it is, and each logged-out user's list waits under
 * `tonearm.downloads.<id>` until they log in here again. Their audio sits in their own cache (offline-audio.ts).
 */

const isUserId = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

/** The user whose downloads are active on this browser, or null when nobody is signed in. */
export function downloadsOwner(): number | null {
  return readJson(AppStorageKeys.downloadsOwner, isUserId) ?? null;
}

/** Puts the active list aside for its owner and leaves `downloadedSong` empty (logout). */
export function parkDownloads(): void {
  const owner = downloadsOwner();
  const list = readJson(StorageKeys.downloadedSongs, isSongList);
  if (owner !== null && list !== undefined) writeJson(stashedDownloadsKey(owner), list);
  removeKey(StorageKeys.downloadedSongs);
  removeKey(AppStorageKeys.downloadsOwner);
}

/**
 * Makes `userId`'s list the active one (login, or start-up with a stored user). A list of another user is put aside
 * first. A list with no owner at all predates per-user downloads: `adoptUnowned` (start-up, the stored user was
 * signed in when it was made) keeps it for this user; otherwise nobody can say whose it is and it is dropped.
 * Answers whether such a list was adopted.
 */
export function activateDownloads(userId: number, options: { adoptUnowned?: boolean } = {}): boolean {
  const owner = downloadsOwner();
  if (owner === userId) return false;
  if (owner === null && options.adoptUnowned === true) {
    writeJson(AppStorageKeys.downloadsOwner, userId);
    return true;
  }
  parkDownloads();
  const mine = readJson(stashedDownloadsKey(userId), isSongList);
  if (mine !== undefined) writeJson(StorageKeys.downloadedSongs, mine);
  removeKey(stashedDownloadsKey(userId));
  writeJson(AppStorageKeys.downloadsOwner, userId);
  return false;
}
