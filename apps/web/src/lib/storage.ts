import { StorageKeys } from '@tonearm/contract';

/** Keys of the web app's own state that SPEC §3 does not list. */
export const AppStorageKeys = {
  /** The player's queue, shuffle, repeat and volume, restored after a reload. */
  player: 'tonearm.player',
  /** Where the current song was, written more often than the queue. */
  playerPosition: 'tonearm.playerPosition',
  /** The id of the user whose list `downloadedSong` holds now. */
  downloadsOwner: 'tonearm.downloadsOwner',
  /** The profile's "data saver" (this browser only): stream converted Opus at 128 kbit/s. */
  dataSaver: 'tonearm.dataSaver',
  /** The player's crossfade in seconds (this browser only, issue 27): 0 is off. */
  crossfade: 'tonearm.crossfade',
  /** Gapless playback through Media Source Extensions (this browser only, issue 27); on by default. */
  gapless: 'tonearm.gapless',
  /** This browser's device key (issue 27): the server knows this browser as one device of its user by it. */
  deviceKey: 'tonearm.deviceKey',
} as const;

/** A logged-out user's downloaded list, kept aside until they log in again on this browser. */
export type StashedDownloadsKey = `tonearm.downloads.${number}`;
export const stashedDownloadsKey = (userId: number): StashedDownloadsKey => `tonearm.downloads.${userId}`;

/** Issue 26: the order a user chose for each kind of song list, on this browser. */
export type SongOrderKey = `tonearm.songOrder.${number}`;
export const songOrderKey = (userId: number): SongOrderKey => `tonearm.songOrder.${userId}`;

export type StorageKey =
  | (typeof StorageKeys)[keyof typeof StorageKeys]
  | (typeof AppStorageKeys)[keyof typeof AppStorageKeys]
  | StashedDownloadsKey
  | SongOrderKey;
export { StorageKeys };

type Listener = () => void;
const listeners = new Map<StorageKey, Set<Listener>>();

function notify(key: StorageKey): void {
  listeners.get(key)?.forEach((listener) => {
    listener();
  });
}

/** Reads and parses a JSON value; a missing, unreadable or invalid entry reads as undefined. */
export function readJson<T>(key: StorageKey, isValid: (value: unknown) => value is T): T | undefined {
  try {
    const raw = localStorage.getItem(key);
    if (raw === null) return undefined;
    const value: unknown = JSON.parse(raw);
    return isValid(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function writeJson(key: StorageKey, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled (private mode): the app keeps working from memory.
  }
  notify(key);
}

export function removeKey(key: StorageKey): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Storage disabled: nothing was stored either.
  }
  notify(key);
}

/** Subscribes to changes of one key, from this tab (writeJson/removeKey) and from other tabs. */
export function subscribeKey(key: StorageKey, listener: Listener): () => void {
  let set = listeners.get(key);
  if (!set) {
    set = new Set();
    listeners.set(key, set);
  }
  set.add(listener);
  const onStorage = (event: StorageEvent): void => {
    if (event.key === key || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    set.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}
