import type { User } from '@tonearm/contract';
import { AppStorageKeys, readJson, removeKey, StorageKeys, writeJson } from '../../lib/storage.js';

function isStoredUser(value: unknown): value is User {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.id === 'number' && typeof record.username === 'string' && typeof record.role === 'string';
}

/** SPEC §3: the current user is kept locally under `userdata`. */
export function readStoredUser(): User | undefined {
  return readJson(StorageKeys.user, isStoredUser);
}

export function storeUser(user: User): void {
  writeJson(StorageKeys.user, user);
}

/**
 * The saved player (queue, song, position) belongs to whoever was signed in: forgotten when nobody is. The player
 * itself lives in the dashboard layout and is unmounted by then, so the session does it.
 */
export function clearSavedPlayer(): void {
  removeKey(AppStorageKeys.player);
  removeKey(AppStorageKeys.playerPosition);
}

/** SPEC §4: logout clears userdata and the recent songs (and the saved player). */
export function clearSessionStorage(): void {
  removeKey(StorageKeys.user);
  removeKey(StorageKeys.recentSongs);
  clearSavedPlayer();
}
