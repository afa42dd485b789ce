import { SHUFFLE_SEED_MAX, type Song, type SongPage } from '@tonearm/contract';
import { shuffle } from '../lib/shuffle.js';
import type { SongSource } from '../lib/song-sources.js';
import { nextIndex, type Advance, type QueuePosition } from './next-song.js';
import type { PlayerState, QueueFeed, QueueStart, Unshuffled } from './player-state.js';

/**
 * Played songs kept behind the current one while a feed fills the queue: Previous reaches this far back, and the
 * queue (ids and Song objects) stays bounded however long the list. A fixed list (playList) is kept whole.
 */
export const QUEUE_HISTORY_MAX = 100;
/**
 * A server-side shuffle keeps the list order for shuffle off: at most this many of its loaded songs after the one
 * that was playing when shuffle went on (past them, that list order ends).
 */
export const UNSHUFFLED_AHEAD_MAX = 500;

type Random = () => number;

function uniqueIds(songs: readonly Song[]): number[] {
  return [...new Set(songs.map((song) => song.id))];
}

function withSongs(songs: ReadonlyMap<number, Song>, added: readonly Song[]): Map<number, Song> {
  const result = new Map(songs);
  for (const song of added) result.set(song.id, song);
  return result;
}

function songMap(songs: readonly Song[]): Map<number, Song> {
  return withSongs(new Map(), songs);
}

/** `first`, then the other ids in random order: shuffling never interrupts the song that is playing. */
function shuffledAround(ids: readonly number[], first: number, random: Random): number[] {
  return [
    first,
    ...shuffle(
      ids.filter((id) => id !== first),
      random,
    ),
  ];
}

function move<T>(items: readonly T[], from: number, to: number): T[] {
  const result = [...items];
  const [item] = result.splice(from, 1);
  if (item !== undefined) result.splice(to, 0, item);
  return result;
}

/** The catalogue is shuffled by the server (a seed orders every page); other lists only in what is loaded. */
function serverShuffles(source: SongSource): source is Extract<SongSource, { kind: 'catalogue' }> {
  return source.kind === 'catalogue';
}

/** The catalogue source in a new server-side shuffle order, from its first page. */
function serverShuffleFeed(source: Extract<SongSource, { kind: 'catalogue' }>, random: Random): QueueFeed {
  const seed = Math.floor(random() * (SHUFFLE_SEED_MAX + 1));
  return { source: { ...source, order: 'shuffle', seed }, more: true, cursor: null, partial: false };
}

export interface QueueWindow<Feed extends QueueFeed | null> {
  ids: readonly number[];
  index: number;
  feed: Feed;
}

/**
 * At most `max` of `ids` around `at`, at most `history` of them before it. The feed loses its first songs
 * (partial); a feed cut short ends there, since its cursor follows the last loaded song and would skip the songs cut.
 */
export function windowOf<Feed extends QueueFeed | null>(
  ids: readonly number[],
  at: number,
  feed: Feed,
  sizes: { history: number; max: number },
): QueueWindow<Feed> {
  const start = Math.max(0, Math.min(at - sizes.history, ids.length - sizes.max));
  const end = Math.min(ids.length, start + sizes.max);
  const window = { ids: start > 0 || end < ids.length ? ids.slice(start, end) : ids, index: at - start, feed };
  if (!feed || (start === 0 && end === ids.length)) return window;
  const cut = end < ids.length ? { more: false, cursor: null } : {};
  return { ...window, feed: { ...feed, ...cut, partial: true } };
}

/** The list order and feed a server-side shuffle sets aside, around the song playing when shuffle goes on. */
function listOrderAside(ids: readonly number[], at: number, feed: QueueFeed, playing: number): Unshuffled {
  const kept = windowOf(ids, at, feed, {
    history: QUEUE_HISTORY_MAX,
    max: QUEUE_HISTORY_MAX + 1 + UNSHUFFLED_AHEAD_MAX,
  });
  return { ids: kept.ids, feed: kept.feed, resumeAfter: playing };
}

/** With a feed, the songs played longest ago leave the queue (and the list order kept for shuffle off). */
function letGoOfHistory(state: PlayerState): PlayerState {
  const { feed, unshuffled } = state;
  const drop = state.index - QUEUE_HISTORY_MAX;
  if (!feed || drop <= 0) return state;
  const dropped = new Set(state.queue.slice(0, drop));
  return {
    ...state,
    queue: state.queue.slice(drop),
    index: QUEUE_HISTORY_MAX,
    feed: { ...feed, partial: true },
    unshuffled:
      unshuffled?.feed === null ? { ...unshuffled, ids: unshuffled.ids.filter((id) => !dropped.has(id)) } : unshuffled,
  };
}

/** Plays the song at `index` of the queue from its start. */
export function startAt(state: PlayerState, index: number): PlayerState {
  const id = state.queue[index];
  const song = id === undefined ? undefined : state.songs.get(id);
  if (!song) return state;
  const started = { ...state, index, current: song, playing: true, waiting: null, trackKey: state.trackKey + 1 };
  return letGoOfHistory(started);
}

/** Where the queue stands, for the "what comes next" rule. */
export function positionOf(state: PlayerState): QueuePosition {
  const { queue, index, repeat, feed } = state;
  return { queue, index, repeat, more: feed?.more ?? false, partial: feed?.partial ?? false };
}

/** Moves on as the rule says: a song, the end (paused on the last one), or waiting for the page that comes next. */
export function advance(state: PlayerState, why: Advance): PlayerState {
  const step = nextIndex(positionOf(state), why);
  if (step === 'wait') return { ...state, waiting: why, playing: why === 'ended' ? false : state.playing };
  return step === null ? { ...state, waiting: null, playing: false } : startAt(state, step);
}

/** The waiting advance, as if the loaded queue were the whole list (a page could not be had). */
export function advanceWithinLoaded(state: PlayerState): PlayerState {
  if (!state.waiting) return state;
  const step = nextIndex({ ...positionOf(state), more: false, partial: false }, state.waiting);
  return step === null || step === 'wait' ? { ...state, waiting: null, playing: false } : startAt(state, step);
}

/** A list with its songs in memory (downloaded, recent, a search result): no feed, kept whole. */
export function playList(state: PlayerState, songs: readonly Song[], index: number, random: Random): PlayerState {
  const chosen = songs[index];
  if (!chosen) return state;
  const ids = uniqueIds(songs);
  const base: PlayerState = { ...state, songs: songMap(songs), feed: null, unshuffled: null };
  if (!state.shuffle) return startAt({ ...base, queue: ids }, ids.indexOf(chosen.id));
  const unshuffled: Unshuffled = { ids, feed: null, resumeAfter: chosen.id };
  return startAt({ ...base, queue: shuffledAround(ids, chosen.id, random), unshuffled }, 0);
}

/**
 * A song chosen from a paged list: the queue takes the loaded songs and the list's feed. With shuffle on, the
 * catalogue switches to a new server-side shuffle after the chosen song; other lists shuffle what is loaded.
 */
export function playFrom(state: PlayerState, start: QueueStart, random: Random): PlayerState {
  const chosen = start.songs[start.index];
  if (!chosen) return state;
  const ids = uniqueIds(start.songs);
  const at = ids.indexOf(chosen.id);
  const more = start.nextCursor !== null;
  const feed: QueueFeed = { source: start.source, more, cursor: start.nextCursor, partial: false };
  const base: PlayerState = { ...state, songs: songMap(start.songs), feed, feedKey: state.feedKey + 1 };
  if (!state.shuffle) return startAt({ ...base, queue: ids, unshuffled: null }, at);
  if (serverShuffles(feed.source)) {
    const unshuffled = listOrderAside(ids, at, feed, chosen.id);
    return startAt({ ...base, queue: [chosen.id], feed: serverShuffleFeed(feed.source, random), unshuffled }, 0);
  }
  const unshuffled: Unshuffled = { ids, feed: null, resumeAfter: chosen.id };
  return startAt({ ...base, queue: shuffledAround(ids, chosen.id, random), unshuffled }, 0);
}

/** A page answer pins the seed the server chose, so the pages after it follow the same order. */
function pinSeed(source: SongSource, seed: number | null): SongSource {
  if (source.kind !== 'catalogue' || source.seed !== undefined || seed === null) return source;
  return (source.order ?? 'shuffle') === 'shuffle' ? { ...source, seed } : source;
}

/**
 * Appends a page of the feed. Its songs that are current or still to come are skipped (each song is queued once);
 * songs already played move to the end, so a list that goes round again plays them again.
 */
export function appendPage(state: PlayerState, page: SongPage, random: Random): PlayerState {
  const { feed, unshuffled } = state;
  if (!feed) return state;
  const ahead = new Set(state.queue.slice(state.index));
  const fresh = uniqueIds(page.items).filter((id) => !ahead.has(id));
  const added = new Set(fresh);
  const history = state.queue.slice(0, state.index).filter((id) => !added.has(id));
  // Shuffled here, not by the server: the page is shuffled too, and its list order kept for shuffle off.
  const listOrder = state.shuffle && unshuffled?.feed === null ? unshuffled : null;
  const order = listOrder ? shuffle(fresh, random) : fresh;
  return {
    ...state,
    queue: [...history, ...state.queue.slice(state.index), ...order],
    index: history.length,
    songs: withSongs(state.songs, page.items),
    feed: { ...feed, source: pinSeed(feed.source, page.seed), more: page.nextCursor !== null, cursor: page.nextCursor },
    unshuffled: listOrder
      ? { ...listOrder, ids: [...listOrder.ids.filter((id) => !added.has(id)), ...fresh] }
      : unshuffled,
  };
}

/** Shuffle on: the current song stays first. The catalogue continues in a new server-side shuffle order. */
export function shuffleOn(state: PlayerState, random: Random): PlayerState {
  const { feed, current } = state;
  const base: PlayerState = { ...state, index: 0, shuffle: true, waiting: null };
  if (feed && serverShuffles(feed.source)) {
    return {
      ...base,
      queue: [current.id],
      feed: serverShuffleFeed(feed.source, random),
      feedKey: state.feedKey + 1,
      unshuffled: listOrderAside(state.queue, state.index, feed, current.id),
    };
  }
  const unshuffled: Unshuffled = { ids: state.queue, feed: null, resumeAfter: current.id };
  return { ...base, queue: shuffledAround(state.queue, current.id, random), unshuffled };
}

/**
 * Shuffle off: back to the list order at the current song. Queue edits made while shuffled stay (additions at the
 * end, removals honoured). After a server-side shuffle the list's own feed returns; when the current song is not
 * among the list's loaded songs, it is placed after the song that was playing when shuffle went on, and the list
 * goes on from there.
 */
export function shuffleOff(state: PlayerState): PlayerState {
  const { unshuffled, current } = state;
  const base: PlayerState = { ...state, shuffle: false, unshuffled: null, waiting: null };
  if (!unshuffled) return base;
  if (unshuffled.feed === null) {
    const inQueue = new Set(state.queue);
    const original = unshuffled.ids.filter((id) => inQueue.has(id));
    const originalIds = new Set(original);
    const queue = [...original, ...state.queue.filter((id) => !originalIds.has(id))];
    return { ...base, queue, index: Math.max(0, queue.indexOf(current.id)) };
  }
  const restored = { ...base, feed: unshuffled.feed, feedKey: state.feedKey + 1 };
  const at = unshuffled.ids.indexOf(current.id);
  if (at >= 0) return { ...restored, queue: unshuffled.ids, index: at };
  const resume = unshuffled.ids.indexOf(unshuffled.resumeAfter) + 1;
  const queue = [...unshuffled.ids.slice(0, resume), current.id, ...unshuffled.ids.slice(resume)];
  return { ...restored, queue, index: resume };
}

/** Inserts `song` right after the current one or at the end of the loaded queue, out of its old place. */
export function insertIntoQueue(state: PlayerState, song: Song, where: 'next' | 'end'): PlayerState {
  if (song.id === state.current.id) return state;
  const from = state.queue.indexOf(song.id);
  const queue = state.queue.filter((id) => id !== song.id);
  const index = from >= 0 && from < state.index ? state.index - 1 : state.index;
  queue.splice(where === 'next' ? index + 1 : queue.length, 0, song.id);
  const { unshuffled } = state;
  return {
    ...state,
    queue,
    index,
    songs: withSongs(state.songs, [song]),
    unshuffled: unshuffled && { ...unshuffled, ids: [...unshuffled.ids.filter((id) => id !== song.id), song.id] },
  };
}

export function removeFromQueue(state: PlayerState, index: number): PlayerState {
  // The playing song is not removed from under the listener; skipping is what Next is for.
  const removed = state.queue[index];
  if (index === state.index || removed === undefined) return state;
  const { unshuffled } = state;
  return {
    ...state,
    queue: state.queue.filter((_, i) => i !== index),
    index: index < state.index ? state.index - 1 : state.index,
    unshuffled: unshuffled && { ...unshuffled, ids: unshuffled.ids.filter((id) => id !== removed) },
  };
}

export function moveInQueue(state: PlayerState, from: number, to: number): PlayerState {
  const last = state.queue.length - 1;
  if (from === to || from < 0 || from > last || to < 0 || to > last) return state;
  const queue = move(state.queue, from, to);
  return { ...state, queue, index: queue.indexOf(state.current.id) };
}

export function updateSong(state: PlayerState, songId: number, changes: Partial<Song>): PlayerState {
  const song = state.songs.get(songId);
  if (!song && state.current.id !== songId) return state;
  return {
    ...state,
    songs: song ? withSongs(state.songs, [{ ...song, ...changes }]) : state.songs,
    current: state.current.id === songId ? { ...state.current, ...changes } : state.current,
  };
}

/** Song objects of ids no longer queued may linger up to this many before they are let go of, all at once. */
export const SONGS_SLACK = 200;

/**
 * Lets go of the Song objects no queued id needs any more. Every queued id has its song, so the map holds at most
 * SONGS_SLACK more than the ids count; sweeping only then keeps each edit cheap however long the queue.
 */
export function pruneSongs(state: PlayerState): PlayerState {
  const idCount = state.queue.length + (state.unshuffled?.ids.length ?? 0);
  if (state.songs.size <= idCount + SONGS_SLACK) return state;
  const needed = new Set([...state.queue, ...(state.unshuffled?.ids ?? [])]);
  return { ...state, songs: new Map([...state.songs].filter(([id]) => needed.has(id))) };
}

/** The songs after the current one, with their queue positions: what the queue view lists as "Next up". */
export function upcomingSongs(state: Pick<PlayerState, 'queue' | 'index' | 'songs'>): { song: Song; index: number }[] {
  const upcoming: { song: Song; index: number }[] = [];
  for (let index = state.index + 1; index < state.queue.length; index += 1) {
    const id = state.queue[index];
    const song = id === undefined ? undefined : state.songs.get(id);
    if (song) upcoming.push({ song, index });
  }
  return upcoming;
}

/** The song the engine should have ready when the current one ends; null when playback would stop or wait. */
export function songAfterCurrent(state: PlayerState): Song | null {
  const next = nextIndex(positionOf(state), 'ended');
  if (typeof next !== 'number') return null;
  const id = state.queue[next];
  return id === undefined ? null : (state.songs.get(id) ?? null);
}
