import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** What can be rated, and where each kind's stars are kept (migration 027). */
export type RatedKind = 'song' | 'album' | 'artist';

const TABLES = {
  song: { table: 'song_ratings', column: 'song_id' },
  album: { table: 'album_ratings', column: 'album_id' },
  artist: { table: 'artist_ratings', column: 'artist_id' },
} as const;

export interface RatingsRepository {
  /** Sets the user's stars on the item (1–5), replacing any earlier rating. */
  set(kind: RatedKind, userId: number, itemId: number, rating: number, at: string): Promise<void>;
  /** Idempotent: clearing an unrated item is not an error. */
  clear(kind: RatedKind, userId: number, itemId: number): Promise<void>;
  /**
   * The user's stars on these items, or on every item of the kind when `itemIds` is absent (through the primary key:
   * few beside a catalogue); one query, unrated items absent.
   */
  ratingsOf(kind: RatedKind, userId: number, itemIds?: readonly number[]): Promise<Map<number, number>>;
}

export function createRatingsRepository(db: Kysely<DB>): RatingsRepository {
  // The three tables share one shape; Kysely cannot type a table chosen at run time, so each query names its own.
  return {
    async set(kind, userId, itemId, rating, at) {
      const { table, column } = TABLES[kind];
      const any = db as unknown as Kysely<Record<string, RatingRow>>;
      await any
        .insertInto(table)
        .values({ user_id: userId, [column]: itemId, rating, updated_at: at })
        .onConflict((oc) => oc.columns(['user_id', column]).doUpdateSet({ rating, updated_at: at }))
        .execute();
    },

    async clear(kind, userId, itemId) {
      const { table, column } = TABLES[kind];
      const any = db as unknown as Kysely<Record<string, RatingRow>>;
      await any.deleteFrom(table).where('user_id', '=', userId).where(column, '=', itemId).execute();
    },

    async ratingsOf(kind, userId, itemIds) {
      if (itemIds?.length === 0) return new Map();
      const { table, column } = TABLES[kind];
      const any = db as unknown as Kysely<Record<string, RatingRow>>;
      const rows = await any
        .selectFrom(table)
        .select([`${column} as item_id`, 'rating'])
        .where('user_id', '=', userId)
        .$if(itemIds !== undefined, (query) => query.where(column, 'in', [...(itemIds ?? [])]))
        .execute();
      return new Map(rows.map((row) => [Number(row.item_id), row.rating]));
    },
  };
}

/** A row of any of the three rating tables, as the queries above read and write it. */
interface RatingRow {
  user_id: number;
  // Each table has one of these; null lets an insert name only its own.
  song_id: number | null;
  album_id: number | null;
  artist_id: number | null;
  item_id: number | null;
  rating: number;
  updated_at: string;
}
