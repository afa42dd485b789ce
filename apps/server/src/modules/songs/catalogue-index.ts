import { setImmediate as nextTurn } from 'node:timers/promises';
import { rememberRecent } from '../../db/catalogue-rows.js';
import { idMixes, passes, shuffledPage, SortedShuffle, type ColumnFilter, type ShuffledPage } from './shuffle-order.js';
import type { CatalogueEntry, CatalogueFilter, CatalogueSource } from './song-pages.repository.js';

/**
 * Songs read per query while loading: each query holds the event loop a few milliseconds at most, and the load waits
 * for the next turn of the event loop between two (on SQLite a query's promise is settled before it is awaited, so
 * without that wait the whole load would run as one task: 50–120 ms at 20 000 songs, every REFRESH_INTERVAL_MS while
 * a scan or an import writes).
 */
const LOAD_CHUNK = 1_000;

/**
 * After someone else's write, the snapshot is reloaded at most this often (a bulk import moves the version with every
 * batch): their new songs show up within about this long.
 */
const REFRESH_INTERVAL_MS = 2_000;

/** A filter no song passes (an artist or genre the catalogue does not hold). */
const NOTHING = -1;

/** Seeds whose whole order a snapshot keeps sorted (about 8 bytes a song each: 0.8 MB for 100 000 songs). */
const SORTED_SEEDS = 8;
/** Seeds a snapshot remembers having been asked for once: the second time, their order is sorted. */
const SEEDS_SEEN = 256;
/** Artist and genre lists a snapshot keeps the ids of. */
const SUBSETS = 256;

/** Binary search in ascending ids: the index of the first id not below `id`. */
function lowerBound(ids: Int32Array, id: number): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((ids[middle] ?? 0) < id) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** A copy of `array` with `value` put in at `index` (or, with `remove`, the element there taken out). */
function spliced(array: Int32Array, index: number, value: number, remove: boolean): Int32Array {
  const copy = new Int32Array(array.length + (remove ? -1 : 1));
  copy.set(array.subarray(0, index));
  if (remove) copy.set(array.subarray(index + 1), index);
  else {
    copy[index] = value;
    copy.set(array.subarray(index), index + 1);
  }
  return copy;
}

/**
 * The catalogue as the song pages see it: every song's id (ascending), artist and genre, in typed arrays (about
 * 12 bytes a song: 1.2 MB for 100 000 songs). Immutable: a change makes a new snapshot. It remembers what its pages
 * needed: the sorted order of the seeds paged through (so a page costs a binary search, not a pass over every song)
 * and the ids of the artists and genres asked for (so their pages and counts pass over those songs only).
 */
export class CatalogueSnapshot {
  private readonly sorted = new Map<number, SortedShuffle>();
  private readonly seen = new Map<number, true>();
  private readonly subsets = new Map<string, Int32Array>();
  /** idMixes of `ids`, made at the first unfiltered page that needs a pass. */
  private mixes: Uint32Array | null = null;

  constructor(
    /** catalogue_version when the load began. */
    readonly version: number,
    readonly ids: Int32Array,
    /** Artist id per song, 0 for none. */
    private readonly artists: Int32Array,
    /** Genre code per song (an index into genreCodes). */
    private readonly genres: Int32Array,
    private readonly genreCodes: ReadonlyMap<string, number>,
    /** Library id per song, 0 for one held in the blob store. */
    private readonly libraries: Int32Array,
    /** The songs each artist is credited on beside the main artist (song_artists, role artist), by artist id. */
    private readonly featured: ReadonlyMap<number, ReadonlySet<number>> = new Map(),
  ) {}

  /** The column filters of one artist's and/or one genre's songs; none for the whole catalogue. */
  filters({ artistId, genre, hidden }: CatalogueFilter): ColumnFilter[] {
    const filters: ColumnFilter[] = [];
    if (artistId !== undefined) {
      filters.push({ column: this.artists, value: artistId, alsoIds: this.featured.get(artistId) });
    }
    if (genre !== undefined) filters.push({ column: this.genres, value: this.genreCodes.get(genre) ?? NOTHING });
    if (hidden !== undefined && hidden.length > 0) {
      filters.push({ column: this.libraries, value: NOTHING, except: new Set(hidden) });
    }
    return filters;
  }

  /** How many songs pass the filter. */
  count(filter: CatalogueFilter): number {
    return this.idsPassing(filter).length;
  }

  /** One page of the songs that pass the filter, in the seed's order, after the cursor's song. */
  shuffledPage(seed: number, afterId: number | undefined, limit: number, filter: CatalogueFilter): ShuffledPage {
    if (this.filters(filter).length > 0) return shuffledPage(this.idsPassing(filter), { seed, afterId, limit });
    return (
      this.sortedOrder(seed)?.page(afterId, limit) ??
      shuffledPage(this.ids, { seed, afterId, limit, mixes: (this.mixes ??= idMixes(this.ids)) })
    );
  }

  /**
   * The seed's sorted order, from its second request on: a seed asked for once (a new listener's first page) costs one
   * pass; one paged through or asked for again is sorted once and then served by binary search.
   */
  private sortedOrder(seed: number): SortedShuffle | undefined {
    let order = this.sorted.get(seed);
    if (order === undefined) {
      if (!this.seen.has(seed)) {
        rememberRecent(this.seen, seed, true, SEEDS_SEEN);
        return undefined;
      }
      order = new SortedShuffle(this.ids, seed);
    }
    rememberRecent(this.sorted, seed, order, SORTED_SEEDS);
    return order;
  }

  /** The ids (ascending) of the songs that pass the filter. */
  private idsPassing(filter: CatalogueFilter): Int32Array {
    const filters = this.filters(filter);
    if (filters.length === 0) return this.ids;
    const key = `${filter.artistId ?? ''}|${filter.genre ?? ''}|${filter.hidden?.join(',') ?? ''}`;
    let ids = this.subsets.get(key);
    ids ??= this.ids.filter((id, index) => passes(filters, index, id));
    rememberRecent(this.subsets, key, ids, SUBSETS);
    return ids;
  }

  /** Whether the song is in the catalogue and passes the filter. */
  holds(id: number, filter: CatalogueFilter): boolean {
    const index = lowerBound(this.ids, id);
    return this.ids[index] === id && passes(this.filters(filter), index, id);
  }

  /** This snapshot with one song added or changed (`entry`), or removed (null). */
  withSong(id: number, entry: CatalogueEntry | null): CatalogueSnapshot {
    const index = lowerBound(this.ids, id);
    const present = this.ids[index] === id;
    if (entry === null) {
      if (!present) return this;
      const without = (array: Int32Array) => spliced(array, index, 0, true);
      return new CatalogueSnapshot(
        this.version,
        without(this.ids),
        without(this.artists),
        without(this.genres),
        this.genreCodes,
        without(this.libraries),
        this.featured,
      );
    }
    const genreCodes = new Map(this.genreCodes);
    const code = genreCodes.get(entry.genre) ?? genreCodes.size;
    genreCodes.set(entry.genre, code);
    const artist = entry.artist_id ?? 0;
    const library = entry.library_id ?? 0;
    if (present) {
      const artists = Int32Array.from(this.artists);
      const genres = Int32Array.from(this.genres);
      const libraries = Int32Array.from(this.libraries);
      artists[index] = artist;
      genres[index] = code;
      libraries[index] = library;
      return new CatalogueSnapshot(this.version, this.ids, artists, genres, genreCodes, libraries, this.featured);
    }
    const withIt = (array: Int32Array, value: number) => spliced(array, index, value, false);
    return new CatalogueSnapshot(
      this.version,
      withIt(this.ids, id),
      withIt(this.artists, artist),
      withIt(this.genres, code),
      genreCodes,
      withIt(this.libraries, library),
      this.featured,
    );
  }
}

/** Reads the whole catalogue in chunks (the event loop runs between them). */
async function loadSnapshot(source: CatalogueSource, chunkSize: number): Promise<CatalogueSnapshot> {
  const version = await source.version();
  const ids: number[] = [];
  const artists: number[] = [];
  const genres: number[] = [];
  const libraries: number[] = [];
  const genreCodes = new Map<string, number>();
  for (let afterId = 0; ;) {
    const rows = await source.chunk(afterId, chunkSize);
    for (const row of rows) {
      let code = genreCodes.get(row.genre);
      if (code === undefined) genreCodes.set(row.genre, (code = genreCodes.size));
      ids.push(row.id);
      artists.push(row.artist_id ?? 0);
      genres.push(code);
      libraries.push(row.library_id ?? 0);
    }
    const last = rows.at(-1);
    if (last === undefined || rows.length < chunkSize) break;
    afterId = last.id;
    await nextTurn();
  }
  const featured = new Map<number, Set<number>>();
  for (const { song_id, artist_id } of await source.featured()) {
    const songs = featured.get(artist_id);
    if (songs === undefined) featured.set(artist_id, new Set([song_id]));
    else songs.add(song_id);
  }
  return new CatalogueSnapshot(
    version,
    Int32Array.from(ids),
    Int32Array.from(artists),
    Int32Array.from(genres),
    genreCodes,
    Int32Array.from(libraries),
    featured,
  );
}

/**
 * The in-memory catalogue the shuffled and filtered song pages scan: one per app, made by the composition root and
 * handed to every service that reads or writes songs. The songs service reports each write it makes (songSaved, songRemoved), and the snapshot follows at once,
 * without a reload. Writes anyone else makes (the import CLI in another process, an artist's deletion) move
 * catalogue_version: a page that sees it moved is answered from the snapshot at hand while a fresh one loads in the
 * background (at most one load every REFRESH_INTERVAL_MS), so pages never wait on someone else's import. Either way
 * the shuffle stays consistent, since its order is a pure function of (seed, id).
 */
export class CatalogueIndex {
  private current: CatalogueSnapshot | null = null;
  private loading: Promise<CatalogueSnapshot> | null = null;
  /** This process's changes since the running load began: replayed on its snapshot, which may have missed them. */
  private changesDuringLoad: [number, CatalogueEntry | null][] = [];
  /** When the last load began (Date.now()). */
  private loadedAt = 0;

  constructor(
    private readonly source: CatalogueSource,
    /** Songs read per query while loading. */
    private readonly chunkSize = LOAD_CHUNK,
    private readonly refreshIntervalMs = REFRESH_INTERVAL_MS,
  ) {}

  /** This process added or changed a song (committed). */
  songSaved(entry: CatalogueEntry): void {
    this.apply(entry.id, entry);
  }

  /** This process deleted a song (committed). */
  songRemoved(id: number): void {
    this.apply(id, null);
  }

  private apply(id: number, entry: CatalogueEntry | null): void {
    this.current = this.current?.withSong(id, entry) ?? null;
    if (this.loading !== null) this.changesDuringLoad.push([id, entry]);
  }

  async snapshot(): Promise<CatalogueSnapshot> {
    const current = this.current;
    if (current === null) return this.load();
    const due = Date.now() - this.loadedAt >= this.refreshIntervalMs;
    if (due && this.loading === null && (await this.source.version()) !== current.version) {
      // Refreshed in the background; a failed load is retried by a later page, which sees the same version.
      this.load().catch(() => undefined);
    }
    return current;
  }

  /** Resolves once no load is under way (the app waits for it before it closes the database). */
  async settled(): Promise<void> {
    await this.loading?.catch(() => undefined);
  }

  private load(): Promise<CatalogueSnapshot> {
    if (this.loading !== null) return this.loading;
    this.loadedAt = Date.now();
    const changes: [number, CatalogueEntry | null][] = [];
    this.changesDuringLoad = changes;
    const loading = loadSnapshot(this.source, this.chunkSize)
      .then((loaded) => {
        // Each change carries the song's whole state, so replaying one the load already saw changes nothing.
        const snapshot = changes.reduce((caughtUp, [id, entry]) => caughtUp.withSong(id, entry), loaded);
        this.current = snapshot;
        return snapshot;
      })
      .finally(() => {
        this.loading = null;
      });
    this.loading = loading;
    return loading;
  }
}
