import { sql, type Kysely, type Migration } from 'kysely';

/*
 * Issue 26: GET /api/songs/page sorts the catalogue by a column (song-pages.repository.ts `sortKey`), ties by id, and
 * pages by keyset on (key, id). These indexes hold the songs table's keys in that order, so a page of title or
 * duration reads its rows from the cursor on instead of sorting every song (the same expressions on both dialects).
 * Genre has its index already (genre, then id: 001's songs_genre_idx on SQLite, 004's songs_genre_id_idx on
 * PostgreSQL). Artist and album come from joined tables: no index of the songs table can hold their order.
 */
const INDEXES = {
  songs_title_sort_idx: sql`lower(name), id`,
  songs_duration_sort_idx: sql`coalesce(duration_ms, -1), id`,
};

export const songSortIndexesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const [name, columns] of Object.entries(INDEXES)) {
      await sql`create index ${sql.id(name)} on songs (${columns})`.execute(db);
    }
  },

  async down(db: Kysely<unknown>) {
    for (const name of Object.keys(INDEXES)) await sql`drop index if exists ${sql.id(name)}`.execute(db);
  },
};
