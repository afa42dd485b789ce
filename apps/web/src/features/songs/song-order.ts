import {
  FIRST_SORT_DIRECTION,
  SONG_SORT_COLUMNS,
  SORT_DIRECTIONS,
  type Song,
  type SongSortColumn,
  type SortDirection,
} from '@tonearm/contract';
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { readJson, songOrderKey, subscribeKey, writeJson } from '../../lib/storage.js';
import { useAuth } from '../../shell/auth/useAuth.js';

/** The kinds of song list, each with its own remembered order (issue 26). */
export type SongListKind = 'catalogue' | 'artist' | 'album' | 'playlist' | 'liked' | 'search';

/**
 * How a list is ordered: its own order (`list`: a playlist's, an album's tracks, likes newest first, best match first),
 * the server's shuffle (the catalogue's and an artist's own order), or sorted by a column.
 */
export type SongOrder = { by: 'list' } | { by: SongSortColumn; direction: SortDirection };

export const LIST_ORDER: SongOrder = { by: 'list' };

/** What "the list's own order" is called in each kind of list. */
export const LIST_ORDER_LABELS: Record<SongListKind, string> = {
  catalogue: 'Shuffle',
  artist: 'Shuffle',
  album: 'Album order',
  playlist: 'Playlist order',
  liked: 'Recently liked',
  search: 'Best match',
};

export const COLUMN_LABELS: Record<SongSortColumn, string> = {
  title: 'Title',
  artist: 'Artist',
  album: 'Album',
  genre: 'Genre',
  added: 'Added',
  duration: 'Duration',
  plays: 'Plays',
  rating: 'Rating',
};

export const sameOrder = (a: SongOrder, b: SongOrder): boolean =>
  a.by === b.by && (a.by === 'list' || b.by === 'list' || a.direction === b.direction);

/**
 * A header's click: its column in its first direction (ascending, but the most played first), or the other way round
 * when it is already the order.
 */
export function toggled(current: SongOrder, column: SongSortColumn): SongOrder {
  if (current.by === column) return { by: column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { by: column, direction: FIRST_SORT_DIRECTION[column] };
}

/** A song's plays; 0 for a song kept from an older answer (recent, downloads, a saved queue), which lacks them. */
export const playsOf = (song: Song): number => (song as Partial<Song>).plays ?? 0;

/** The caller's stars on a song (issue 28); 0 (unrated) for none or a song kept from an older answer. */
export const ratingOf = (song: Song): number => (song as Partial<Song>).rating ?? 0;

function isOrder(value: unknown): value is SongOrder {
  if (typeof value !== 'object' || value === null) return false;
  const { by, direction } = value as { by?: unknown; direction?: unknown };
  if (by === 'list') return true;
  return SONG_SORT_COLUMNS.some((column) => column === by) && SORT_DIRECTIONS.some((known) => known === direction);
}

type StoredOrders = Partial<Record<SongListKind, SongOrder>>;

function isStoredOrders(value: unknown): value is StoredOrders {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The order a user chose for a kind of list on this browser; the list's own order until they choose. */
export function storedOrder(userId: number, kind: SongListKind): SongOrder {
  const order = readJson(songOrderKey(userId), isStoredOrders)?.[kind];
  return isOrder(order) ? order : LIST_ORDER;
}

export function storeOrder(userId: number, kind: SongListKind, order: SongOrder): void {
  const key = songOrderKey(userId);
  writeJson(key, { ...readJson(key, isStoredOrders), [kind]: order });
}

/** The order of a kind of list, remembered per user and kind in localStorage (in memory only when signed out). */
export function useSongOrder(kind: SongListKind): [SongOrder, (order: SongOrder) => void] {
  const userId = useAuth().user?.id ?? 0;
  const key = songOrderKey(userId);
  const raw = useSyncExternalStore(
    (listener) => subscribeKey(key, listener),
    () => JSON.stringify(storedOrder(userId, kind)),
  );
  const order = useMemo(() => JSON.parse(raw) as SongOrder, [raw]);
  const setOrder = useCallback((next: SongOrder) => storeOrder(userId, kind, next), [userId, kind]);
  return [order, setOrder];
}

const compareText = (a: string, b: string): number => {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : 0;
};

const COMPARE: Record<SongSortColumn, (a: Song, b: Song) => number> = {
  title: (a, b) => compareText(a.name, b.name),
  artist: (a, b) => compareText(a.artistName, b.artistName),
  album: (a, b) => compareText(a.albumName ?? '', b.albumName ?? ''),
  genre: (a, b) => compareText(a.genre, b.genre),
  added: (a, b) => a.id - b.id,
  duration: (a, b) => (a.durationMs ?? -1) - (b.durationMs ?? -1),
  plays: (a, b) => playsOf(a) - playsOf(b),
  rating: (a, b) => ratingOf(a) - ratingOf(b),
};

/**
 * A list's loaded songs in an order, as the server sorts the catalogue (song-pages.repository.ts): text ignoring
 * case, no duration before any, ties by id in the same direction. `list` keeps them as they are.
 */
export function sortSongs<T extends Song>(songs: readonly T[], order: SongOrder): readonly T[] {
  if (order.by === 'list') return songs;
  const compare = COMPARE[order.by];
  const sign = order.direction === 'asc' ? 1 : -1;
  return [...songs].sort((a, b) => sign * (compare(a, b) || a.id - b.id));
}

/** Which optional columns hold something in any of these songs: a column empty in all of them is hidden. */
export function filledColumns(songs: readonly Song[]): { album: boolean; duration: boolean } {
  return {
    album: songs.some((song) => typeof song.albumName === 'string' && song.albumName !== ''),
    duration: songs.some((song) => typeof song.durationMs === 'number'),
  };
}
