/*
 * The stable server-side shuffle (issue 11, SPEC §7's "songs arrive shuffled"). A seed orders every song by its key
 * `shuffleKey(seed, id)`: a 22-bit hash of (seed, id) above the 31-bit id, one exact integer below 2^53, so the order is
 * a pure function of (seed, id), ties broken by id. A page is the `limit` smallest keys after the cursor's, so songs
 * added or deleted between pages never make the rest repeat or skip. Two ways to the same page: `shuffledPage`, one
 * pass over the ids with a bounded heap (about 1.5 ms for 100 000 songs, no state), and `SortedShuffle`, every key
 * sorted once (about 10 ms for 100 000 songs) and then a binary search per page (microseconds), for a seed that is
 * paged through or asked for again.
 */

const ID_SPAN = 2 ** 31;
/** How far the 32-bit hash is shifted down to leave 22 bits, so that hash * 2^31 + id stays below 2^53. */
const HASH_SHIFT = 10;

/** A 32-bit integer mix (lowbias32): every input bit changes about half of the output bits. */
function mix32(value: number): number {
  let x = value;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** The seed as it enters each song's hash (mixed, so that near seeds give unrelated orders). */
function seedMix(seed: number): number {
  return mix32(seed ^ 0x9e3779b9);
}

function keyOf(mixedSeed: number, id: number): number {
  return (mix32(mix32(id) ^ mixedSeed) >>> HASH_SHIFT) * ID_SPAN + id;
}

/**
 * mix32 of each id, the half of every key that does not depend on the seed: a snapshot computes it once for its ids
 * (4 bytes a song) and each first page of a seed then mixes each id once instead of twice.
 */
export function idMixes(ids: ArrayLike<number>): Uint32Array {
  const mixes = new Uint32Array(ids.length);
  for (let index = 0; index < ids.length; index += 1) mixes[index] = mix32(ids[index] ?? 0);
  return mixes;
}

/** The song's place in the seed's order: smaller comes first. */
export function shuffleKey(seed: number, id: number): number {
  return keyOf(seedMix(seed), id);
}

/**
 * Only the songs whose value in `column` (same index as the ids) is `value`; or, with `except`, only those whose value
 * is none of those.
 */
export interface ColumnFilter {
  column: ArrayLike<number>;
  value: number;
  except?: ReadonlySet<number>;
  /** Songs (by id) that pass whatever their value (an artist's songs where they are credited beside the main one). */
  alsoIds?: ReadonlySet<number> | undefined;
}

export interface ShuffleRequest {
  seed: number;
  /** The id of the previous page's last song; absent for the first page. */
  afterId?: number | undefined;
  limit: number;
  /** Only the songs that pass every one of these. */
  filters?: readonly ColumnFilter[];
  /** idMixes of the same ids, when the caller keeps them. */
  mixes?: Uint32Array;
}

export interface ShuffledPage {
  /** The page's song ids in order. */
  ids: number[];
  /** Whether songs follow the page. */
  more: boolean;
  /** How many songs the (filtered) list holds. */
  total: number;
}

/** A max-heap of at most `capacity` keys: it keeps the smallest keys offered. */
class SmallestKeys {
  private readonly heap: Float64Array;
  private size = 0;

  constructor(private readonly capacity: number) {
    this.heap = new Float64Array(capacity);
  }

  offer(key: number): void {
    if (this.size < this.capacity) this.siftUp(this.size++, key);
    else if (key < (this.heap[0] ?? -Infinity)) this.siftDown(key);
  }

  /** The largest key kept once full (a key not below it is not kept), else Infinity. */
  bound(): number {
    return this.size < this.capacity ? Infinity : (this.heap[0] ?? Infinity);
  }

  /** The kept keys, smallest first. */
  sorted(): Float64Array {
    return this.heap.slice(0, this.size).sort();
  }

  private siftUp(start: number, key: number): void {
    const heap = this.heap;
    let child = start;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      const above = heap[parent] ?? Infinity;
      if (above >= key) break;
      heap[child] = above;
      child = parent;
    }
    heap[child] = key;
  }

  private siftDown(key: number): void {
    const heap = this.heap;
    let parent = 0;
    for (;;) {
      const left = 2 * parent + 1;
      if (left >= this.size) break;
      const right = left + 1;
      const larger = right < this.size && (heap[right] ?? 0) > (heap[left] ?? 0) ? right : left;
      const below = heap[larger] ?? 0;
      if (below <= key) break;
      heap[parent] = below;
      parent = larger;
    }
    heap[parent] = key;
  }
}

/** Whether the song at `index` (of id `id`) passes every filter. */
export function passes(filters: readonly ColumnFilter[], index: number, id: number): boolean {
  for (const { column, value, except, alsoIds } of filters) {
    const fails = except === undefined ? column[index] !== value : except.has(column[index] ?? 0);
    if (fails && alsoIds?.has(id) !== true) return false;
  }
  return true;
}

/** One page of `ids` (any order) shuffled by the request's seed, after its cursor, through its filters. */
export function shuffledPage(ids: ArrayLike<number>, request: ShuffleRequest): ShuffledPage {
  const mixed = seedMix(request.seed);
  const floor = request.afterId === undefined ? -1 : keyOf(mixed, request.afterId);
  const filters = request.filters ?? [];
  const kept = new SmallestKeys(request.limit);
  const { mixes } = request;
  let total = 0;
  let after = 0;
  // Keys not below `bound` are not kept (only counted): most keys of a large catalogue, rejected by one comparison.
  let bound = kept.bound();
  for (let index = 0; index < ids.length; index += 1) {
    const id = ids[index] ?? 0;
    if (filters.length > 0 && !passes(filters, index, id)) continue;
    total += 1;
    const key =
      mixes === undefined ? keyOf(mixed, id) : (mix32((mixes[index] ?? 0) ^ mixed) >>> HASH_SHIFT) * ID_SPAN + id;
    if (key <= floor) continue;
    after += 1;
    if (key >= bound) continue;
    kept.offer(key);
    bound = kept.bound();
  }
  const page = Array.from(kept.sorted(), (key) => key % ID_SPAN);
  return { ids: page, more: after > page.length, total };
}

/** The keys of `ids` under one seed, sorted once: each page is then a binary search and a slice. */
export class SortedShuffle {
  private readonly keys: Float64Array;
  private readonly mixed: number;

  constructor(ids: ArrayLike<number>, seed: number) {
    this.mixed = seedMix(seed);
    const keys = new Float64Array(ids.length);
    for (let index = 0; index < ids.length; index += 1) keys[index] = keyOf(this.mixed, ids[index] ?? 0);
    this.keys = keys.sort();
  }

  /** The same page as shuffledPage over the same ids, without filters. */
  page(afterId: number | undefined, limit: number): ShuffledPage {
    const keys = this.keys;
    let start = 0;
    if (afterId !== undefined) {
      // The first key above the cursor's (the cursor's song may be gone: its key still places the page).
      const floor = keyOf(this.mixed, afterId);
      let high = keys.length;
      while (start < high) {
        const middle = (start + high) >> 1;
        if ((keys[middle] ?? 0) <= floor) start = middle + 1;
        else high = middle;
      }
    }
    const end = Math.min(keys.length, start + limit);
    const ids: number[] = [];
    for (let index = start; index < end; index += 1) ids.push((keys[index] ?? 0) % ID_SPAN);
    return { ids, more: end < keys.length, total: keys.length };
  }
}
