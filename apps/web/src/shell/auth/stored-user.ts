import type { User } from '@tonearm/contract';
import { readJson, removeKey, StorageKeys, writeJson } from '../../lib/storage.js';

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

/** SPEC §4: logout clears userdata and the recent songs. */
export function clearSessionStorage(): void {
  removeKey(StorageKeys.user);
  removeKey(StorageKeys.recentSongs);
}
