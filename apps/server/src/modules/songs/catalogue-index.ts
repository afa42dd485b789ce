import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { ColumnFilter } from './shuffle-order.js';
import { createSongPagesRepository, type CatalogueFilter, type CatalogueSource } from './song-pages.repository.js';

/** Songs read per query while loading: each query holds the event loop a few milliseconds at most. */
const LOAD_CHUNK = 10_000;

/** A filter no song passes (an artist or genre the catalogue does not hold). */
const NOTHING = -1;

/**
 * The catalogue as the song pages see it: every song's id (ascending), artist and genre, in typed arrays (about
 * 12 bytes a song: 1.2 MB for 100 000 songs).
 */
export class CatalogueSnapshot {
  constructor(
    /** catalogue_version when the load began. */
    readonly version: number,
    readonly ids: Int32Array,
    /** Artist id per song, 0 for none. */
    private readonly artists: Int32Array,
    /** Genre code per song (an index into genreCodes). */
    private readonly genres: Int32Array,
    private readonly genreCodes: ReadonlyMap<string, number>,
  ) {}

  /** The column filters of one artist's and/or one genre's songs; none for the whole catalogue. */
  filters({ artistId, genre }: CatalogueFilter): ColumnFilter[] {
    const filters: ColumnFilter[] = [];
    if (artistId !== undefined) filters.push({ column: this.artists, value: artistId });
    if (genre !== undefined) filters.push({ column: this.genres, value: this.genreCodes.get(genre) ?? NOTHING });
    return filters;
  }

  /** How many songs pass the filter. */
  count(filter: CatalogueFilter): number {
    if (filter.artistId === undefined && filter.genre === undefined) return this.ids.length;
    let count = 0;
    for (let index = 0; index < this.ids.length; index += 1) if (this.passes(index, filter)) count += 1;
    return count;
  }

  /** Whether the song is in the catalogue and passes the filter. */
  holds(id: number, filter: CatalogueFilter): boolean {
    const index = this.indexOf(id);
    return index >= 0 && this.passes(index, filter);
  }

  private passes(index: number, { artistId, genre }: CatalogueFilter): boolean {
    if (artistId !== undefined && this.artists[index] !== artistId) return false;
    return genre === undefined || this.genres[index] === (this.genreCodes.get(genre) ?? NOTHING);
  }

  /** Binary search in the ascending ids; -1 when absent. */
  private indexOf(id: number): number {
    let low = 0;
    let high = this.ids.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const found = this.ids[middle] ?? 0;
      if (found === id) return middle;
      if (found < id) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }
}

/** Reads the whole catalogue in chunks (the event loop runs between them). */
async function loadSnapshot(source: CatalogueSource, chunkSize: number): Promise<CatalogueSnapshot> {
  const version = await source.version();
  const ids: number[] = [];
  const artists: number[] = [];
  const genres: number[] = [];
  const genreCodes = new Map<string, number>();
  for (let afterId = 0; ;) {
    const rows = await source.chunk(afterId, chunkSize);
    for (const row of rows) {
      let code = genreCodes.get(row.genre);
      if (code === undefined) genreCodes.set(row.genre, (code = genreCodes.size));
      ids.push(row.id);
      artists.push(row.artist_id ?? 0);
      genres.push(code);
    }
    const last = rows.at(-1);
    if (last === undefined || rows.length < chunkSize) break;
    afterId = last.id;
  }
  return new CatalogueSnapshot(
    version,
    Int32Array.from(ids),
    Int32Array.from(artists),
    Int32Array.from(genres),
    genreCodes,
  );
}

/**
 * The in-memory catalogue the shuffled and filtered song pages scan (one per database, shared by every service over
 * it). Writes through the songs service invalidate it: the next page waits for a fresh load. Writes anyone else makes
 * (the import CLI in another process, an artist's deletion) move catalogue_version: a page that sees it moved is
 * answered from the snapshot it has while a fresh one loads, so pages never wait on someone else's import. Either
 * way the shuffle stays consistent, since its order is a pure function of (seed, id).
 */
export class CatalogueIndex {
  private current: CatalogueSnapshot | null = null;
  private loading: Promise<CatalogueSnapshot> | null = null;
  /** Bumped by invalidate(): a load begun before it must not install its (older) snapshot. */
  private generation = 0;

  constructor(
    private readonly source: CatalogueSource,
    /** Songs read per query while loading. */
    private readonly chunkSize = LOAD_CHUNK,
  ) {}

  /** The catalogue changed here: the next snapshot() waits for a fresh load. */
  invalidate(): void {
    this.generation += 1;
    this.current = null;
    this.loading = null;
  }

  async snapshot(): Promise<CatalogueSnapshot> {
    const current = this.current;
    if (current === null) return this.load();
    if ((await this.source.version()) !== current.version) {
      // Refreshed in the background; a failed load is retried by the next page, which sees the same version.
      this.load().catch(() => undefined);
    }
    return current;
  }

  private load(): Promise<CatalogueSnapshot> {
    if (this.loading !== null) return this.loading;
    const generation = this.generation;
    const loading = loadSnapshot(this.source, this.chunkSize)
      .then((snapshot) => {
        if (generation === this.generation) this.current = snapshot;
        return snapshot;
      })
      .finally(() => {
        if (this.loading === loading) this.loading = null;
      });
    this.loading = loading;
    return loading;
  }
}

const shared = new WeakMap<Kysely<DB>, CatalogueIndex>();

/** The catalogue index of this database: one per database handle, shared by every songs service over it. */
export function catalogueIndexOf(db: Kysely<DB>): CatalogueIndex {
  let index = shared.get(db);
  if (index === undefined) {
    index = new CatalogueIndex(createSongPagesRepository(db));
    shared.set(db, index);
  }
  return index;
}
