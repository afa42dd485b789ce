import { sql, type Kysely, type Migration } from 'kysely';
import { dialectOf } from '../dialect.js';

/*
 * `catalogue_rows_version` counts every write that can change what a song or an album answers: any change to songs,
 * album_tracks or albums, an artist's rename or deletion. The server keeps song and album rows in memory
 * (db/catalogue-rows.ts) only while this count stays where it was, so a write by anyone (another instance, the import
 * CLI, a cascade, raw SQL) is seen by the next request. Triggers move it, once per row on SQLite and once per
 * statement on PostgreSQL.
 */
const TABLE = 'catalogue_rows_version';

/** [table, SQLite trigger events, PostgreSQL trigger events]. */
const WATCHED: [string, string[], string][] = [
  ['songs', ['insert', 'update', 'delete'], 'insert or update or delete'],
  ['album_tracks', ['insert', 'update', 'delete'], 'insert or update or delete'],
  ['albums', ['insert', 'update', 'delete'], 'insert or update or delete'],
  ['artists', ['update of name', 'delete'], 'update of name or delete'],
];

const triggerName = (table: string, event: string) => `${TABLE}_after_${table}_${event.split(' ')[0] ?? event}`;

export const catalogueRowsVersionMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable(TABLE)
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('version', 'bigint', (c) => c.notNull())
      .execute();
    await sql`insert into ${sql.id(TABLE)} (id, version) values (1, 0)`.execute(db);
    const bump = sql.raw(`update ${TABLE} set version = version + 1`);
    if (dialectOf(db) === 'postgres') {
      await sql`create function tonearm_catalogue_rows_changed() returns trigger language plpgsql as $$
        begin
          ${bump};
          return null;
        end $$`.execute(db);
      for (const [table, , events] of WATCHED) {
        await sql`create trigger ${sql.id(triggerName(table, 'change'))} after ${sql.raw(events)} on ${sql.id(table)}
          for each statement execute function tonearm_catalogue_rows_changed()`.execute(db);
      }
      return;
    }
    for (const [table, events] of WATCHED) {
      for (const event of events) {
        await sql`create trigger ${sql.id(triggerName(table, event))} after ${sql.raw(event)} on ${sql.id(table)}
          begin ${bump}; end`.execute(db);
      }
    }
  },

  async down(db: Kysely<unknown>) {
    if (dialectOf(db) === 'postgres') {
      for (const [table] of WATCHED) {
        await sql`drop trigger ${sql.id(triggerName(table, 'change'))} on ${sql.id(table)}`.execute(db);
      }
      await sql`drop function tonearm_catalogue_rows_changed()`.execute(db);
    } else {
      for (const [table, events] of WATCHED) {
        for (const event of events) await sql`drop trigger ${sql.id(triggerName(table, event))}`.execute(db);
      }
    }
    await db.schema.dropTable(TABLE).execute();
  },
};
