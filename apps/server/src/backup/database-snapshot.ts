import { existsSync } from 'node:fs';
import path from 'node:path';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { createDatabase, SQLITE_FILE_NAME } from '../db/database.js';
import type { DB } from '../db/schema.js';
import { openSqliteFile } from '../db/sqlite-driver.js';
import { createBlobReferencesRepository } from '../maintenance/blob-references.repository.js';
import { BackupError } from './backup-error.js';
import { createBackupRepository, type LibraryListing } from './backup.repository.js';
import { POSTGRES_ENTRY, SQLITE_ENTRY } from './backup-manifest.js';
import { pgDump } from './postgres-tools.js';
import { referencedBlobs, type BlobRef } from './referenced-blobs.js';

/** Which database to back up: the server's configuration (DATA_DIR, DATABASE_URL). */
export interface DatabaseLocation {
  dataDir: string;
  databaseUrl: string | null;
}

/** A consistent copy of the database in a file, and what it references. */
export interface DatabaseSnapshot {
  kind: 'sqlite' | 'postgres';
  file: string;
  entry: string;
  migrations: string[];
  blobs: BlobRef[];
  /** The libraries, whose files stay in their folders (listed, never copied). */
  libraries: LibraryListing[];
}

/** Called with the database exactly as the snapshot holds it, while it is being taken. */
export type SnapshotObserver = (db: Kysely<DB>) => Promise<void>;

/** What every snapshot reads from its own consistent view: the schema version, the referenced blobs, the libraries. */
async function describe(db: Kysely<DB>, observe: SnapshotObserver | undefined) {
  const repository = createBackupRepository(db);
  const migrations = await repository.appliedMigrations();
  const blobs = await referencedBlobs(createBlobReferencesRepository(db), await repository.libraryImageKeys());
  const libraries = await repository.libraries();
  await observe?.(db);
  return { migrations, blobs, libraries };
}

/**
 * SQLite's online backup API copies the live database page by page into `file`. It is copied in one step, inside
 * one read transaction: in WAL mode that never blocks the server's writes, and no write can slip in half way. The
 * copy is then switched out of WAL mode, so it is one self-contained file.
 */
async function sqliteSnapshot(dataDir: string, file: string, observe?: SnapshotObserver): Promise<DatabaseSnapshot> {
  const live = path.join(dataDir, SQLITE_FILE_NAME);
  if (!existsSync(live)) throw new BackupError(`There is no database to back up at ${live} (check DATA_DIR).`);
  const source = openSqliteFile(live, { mustExist: true });
  try {
    await source.backup(file);
  } finally {
    source.close();
  }
  const copy = openSqliteFile(file);
  copy.exec('pragma journal_mode = DELETE');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: copy }) });
  try {
    return { kind: 'sqlite', file, entry: SQLITE_ENTRY, ...(await describe(db, observe)) };
  } finally {
    await db.destroy();
  }
}

/**
 * pg_dump in the snapshot of a read-only repeatable-read transaction of our own (pg_export_snapshot): the dump and the
 * list of referenced blobs see exactly the same committed rows, whatever the server writes meanwhile.
 */
async function postgresSnapshot(
  databaseUrl: string,
  file: string,
  observe?: SnapshotObserver,
): Promise<DatabaseSnapshot> {
  const database = createDatabase({ dataDir: '', databaseUrl, poolSize: 1 });
  try {
    return await database.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        const { rows } = await sql<{ id: string }>`select pg_export_snapshot() as id`.execute(trx);
        const id = rows[0]?.id;
        if (id === undefined) throw new Error('PostgreSQL exported no snapshot');
        await pgDump(databaseUrl, id, file);
        return { kind: 'postgres' as const, file, entry: POSTGRES_ENTRY, ...(await describe(trx, observe)) };
      });
  } finally {
    await database.destroy();
  }
}

/** A consistent snapshot of the configured database, written to `file`. */
export function takeSnapshot(
  location: DatabaseLocation,
  file: string,
  observe?: SnapshotObserver,
): Promise<DatabaseSnapshot> {
  return location.databaseUrl === null
    ? sqliteSnapshot(location.dataDir, file, observe)
    : postgresSnapshot(location.databaseUrl, file, observe);
}
