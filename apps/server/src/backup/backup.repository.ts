import { DEFAULT_MIGRATION_TABLE, sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** A library as a backup lists it: its folder, and how many files of it the database knows, of what total size. */
export interface LibraryListing {
  id: number;
  name: string;
  path: string;
  files: number;
  bytes: number;
}

/** What a backup or a restore asks the database itself (the rows are read by BlobReferencesRepository). */
export interface BackupRepository {
  /** The names of the applied migrations, in order; none when the database was never migrated. */
  appliedMigrations(): Promise<string[]>;
  /** Every table of the database, Kysely's own included: none means an empty database to restore into. */
  tableNames(): Promise<string[]>;
  /** Every library (docs/libraries.md) with its files' count and size; none before the libraries migration. */
  libraries(): Promise<LibraryListing[]>;
  /** The image keys whose original is a picture in a library folder: only their thumbnails can be in the store. */
  libraryImageKeys(): Promise<Set<string>>;
  /** Points a restored library at the folder where it now is. */
  moveLibrary(id: number, path: string): Promise<void>;
  /** Marks the songs of a library missing (as a scan does when their files are gone), from `since` on. */
  markLibraryMissing(id: number, since: string): Promise<void>;
}

export function createBackupRepository(db: Kysely<DB>): BackupRepository {
  async function tableNames(): Promise<string[]> {
    const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
    return tables.map((table) => table.name);
  }
  const hasLibraries = async () => (await tableNames()).includes('libraries');
  return {
    async appliedMigrations() {
      if (!(await tableNames()).includes(DEFAULT_MIGRATION_TABLE)) return [];
      const rows = await sql<{
        name: string;
      }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)} order by name`.execute(db);
      return rows.rows.map((row) => row.name);
    },
    tableNames,
    async libraries() {
      if (!(await hasLibraries())) return [];
      const rows = await db
        .selectFrom('libraries')
        .leftJoin('library_files', 'library_files.library_id', 'libraries.id')
        .select(['libraries.id', 'libraries.name', 'libraries.path'])
        // Counts and sums are strings (or bigints) from PostgreSQL's driver.
        .select((eb) => [
          eb.fn.count<number | string>('library_files.song_id').as('files'),
          eb.fn.sum<number | string | null>('library_files.size_bytes').as('bytes'),
        ])
        .groupBy(['libraries.id', 'libraries.name', 'libraries.path'])
        .orderBy('libraries.id')
        .execute();
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        path: row.path,
        files: Number(row.files),
        bytes: Number(row.bytes ?? 0),
      }));
    },
    async libraryImageKeys() {
      if (!(await hasLibraries())) return new Set();
      const rows = await db.selectFrom('library_images').select('image_key').distinct().execute();
      return new Set(rows.map((row) => row.image_key));
    },
    async moveLibrary(id, path) {
      await db.updateTable('libraries').set({ path }).where('id', '=', id).execute();
    },
    async markLibraryMissing(id, since) {
      await db
        .updateTable('songs')
        .set({ missing_since: since })
        .where('library_id', '=', id)
        .where('missing_since', 'is', null)
        .execute();
    },
  };
}
