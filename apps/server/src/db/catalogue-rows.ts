import { CompiledQuery, type Kysely } from 'kysely';
import type { DB } from './schema.js';

const VERSION = CompiledQuery.raw('select version from catalogue_rows_version where id = 1', []);

/**
 * Rows of the catalogue (songs, albums, an album's tracks) kept in memory by id, valid while catalogue_rows_version
 * stays where it was: migration 016's triggers move it with every write that can change what such a row answers, made
 * by anyone (this process, another instance, the import CLI, a cascade). Each read asks the database for that one
 * number first, and reads only the rows it does not hold: a page of 50 songs costs a one-row lookup instead of 200
 * B-tree searches. The rows are frozen, since every caller shares them. At most `capacity` rows are kept; past it the
 * oldest tenth goes.
 */
/**
 * Puts `key` last in the map's order (most recently used), dropping the first entries beyond `size`: the small
 * most-recently-used maps of the in-memory catalogue caches.
 */
export function rememberRecent<K, V>(map: Map<K, V>, key: K, value: V, size: number): void {
  map.delete(key);
  map.set(key, value);
  for (const first of map.keys()) {
    if (map.size <= size) break;
    map.delete(first);
  }
}

export class CatalogueRows<Row extends object> {
  private version: number | null = null;
  private readonly byId = new Map<number, Readonly<Row>>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly capacity: number,
  ) {}

  /**
   * The rows of `ids` that exist, in the order of `ids` (duplicates once): those held, and the others from `load`,
   * which answers the rows of the ids it is given (any order, unknown ids left out).
   */
  async get(
    ids: readonly number[],
    load: (missing: number[]) => Promise<Row[]>,
    idOf: (row: Row) => number,
  ): Promise<Readonly<Row>[]> {
    const version = await this.currentVersion();
    const found = new Map<number, Readonly<Row>>();
    const missing = new Set<number>();
    for (const id of ids) {
      const row = this.byId.get(id);
      if (row !== undefined) found.set(id, row);
      else missing.add(id);
    }
    if (missing.size > 0) {
      const loaded = (await load([...missing])).map((row) => Object.freeze(row));
      // Kept only if no one has seen a newer version meanwhile (the rows may be newer than `version`, never older).
      const keep = this.version === version;
      for (const row of loaded) {
        found.set(idOf(row), row);
        if (keep) this.remember(idOf(row), row);
      }
    }
    const rows: Readonly<Row>[] = [];
    for (const id of new Set(ids)) {
      const row = found.get(id);
      if (row !== undefined) rows.push(row);
    }
    return rows;
  }

  private async currentVersion(): Promise<number> {
    const { rows } = await this.db.executeQuery<{ version: number | string }>(VERSION);
    const version = Number(rows[0]?.version ?? 0);
    if (version !== this.version) {
      this.byId.clear();
      this.version = version;
    }
    return version;
  }

  private remember(id: number, row: Readonly<Row>): void {
    this.byId.set(id, row);
    if (this.byId.size <= this.capacity) return;
    // A tenth out at once, in one walk from the oldest: taking the oldest one at a time, each walk would first step over
    // the holes the earlier deletions left at the front of the Map (10 % of a new seed's page in a profile).
    let excess = this.byId.size - this.capacity + Math.floor(this.capacity / 10);
    for (const oldest of this.byId.keys()) {
      if (excess-- <= 0) break;
      this.byId.delete(oldest);
    }
  }
}
