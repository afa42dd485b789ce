import type { Song } from '@tonearm/contract';
import { useSyncExternalStore } from 'react';
import { readDownloadedSongs } from './downloaded-songs.js';
import { readRecentSongs } from './recent-songs.js';
import { subscribeKey, StorageKeys, type StorageKey } from './storage.js';

interface StoredList {
  subscribe: (listener: () => void) => () => void;
  snapshot: () => Song[];
}

/** Parses again only when the stored text changed, so the snapshot stays referentially stable. */
function storedList(key: StorageKey, read: () => Song[]): StoredList {
  let lastRaw: string | null | undefined;
  let current: Song[] = [];
  return {
    subscribe: (listener) => subscribeKey(key, listener),
    snapshot: () => {
      let raw: string | null;
      try {
        raw = localStorage.getItem(key);
      } catch {
        raw = null;
      }
      if (raw !== lastRaw) {
        lastRaw = raw;
        current = read();
      }
      return current;
    },
  };
}

const downloaded = storedList(StorageKeys.downloadedSongs, readDownloadedSongs);
const recent = storedList(StorageKeys.recentSongs, readRecentSongs);

/** The `downloadedSong` list, live. */
export function useDownloadedSongs(): Song[] {
  return useSyncExternalStore(downloaded.subscribe, downloaded.snapshot, downloaded.snapshot);
}

/** The `song` (recently played) list, live. */
export function useRecentSongs(): Song[] {
  return useSyncExternalStore(recent.subscribe, recent.snapshot, recent.snapshot);
}
