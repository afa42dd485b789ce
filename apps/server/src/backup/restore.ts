import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import type { z } from 'zod';
import { Kysely, SqliteDialect } from 'kysely';
import { createDatabase, SQLITE_FILE_NAME } from '../db/database.js';
import { migrations } from '../db/migrations/index.js';
import type { DB } from '../db/schema.js';
import { openSqliteFile } from '../db/sqlite-driver.js';
import { KEY_FILE_NAME } from '../modules/subsonic/secret-box.js';
import { BLOB_KINDS, type BlobStore } from '../storage/blob-store.js';
import { BackupError } from './backup-error.js';
import { BackupManifest, blobEntry, MANIFEST_ENTRY, type BlobItem } from './backup-manifest.js';
import { createBackupRepository } from './backup.repository.js';
import type { DatabaseLocation } from './database-snapshot.js';
import { placeLibraries, type LibraryFolderOptions, type LibraryPlacement } from './library-folders.js';
import { pgRestore } from './postgres-tools.js';
import { DamagedArchiveError, openEntry, readTarIndex, type TarEntry } from './tar.js';

export interface RestoreOptions extends DatabaseLocation, LibraryFolderOptions {
  store: BlobStore;
  /** The time songs of a library whose folder is missing are marked missing from (now by default). */
  now?: () => string;
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** Blobs written to the store (none when the archive only lists them). */
  blobsWritten: number;
  /** Where each library of the backup now is, and whether its folder was there. */
  libraries: LibraryPlacement[];
}

/** What a restore needs of an archive: its manifest and where each entry is. */
interface Archive {
  file: string;
  manifest: BackupManifest;
  entries: ReadonlyMap<string, TarEntry>;
}

/** A stream that passes bytes through and fails at the end unless they had `expected` as sha256. */
function verifying(expected: string, what: string): Transform {
  const hash = createHash('sha256');
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
    flush(done) {
      const actual = hash.digest('hex');
      done(actual === expected ? null : damaged(what));
    },
  });
}

const damaged = (what: string) =>
  new BackupError(`The archive is damaged: ${what} does not match its sha256 in manifest.json. Nothing was restored.`);

async function sha256Of(source: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of source) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function openArchive(file: string): Promise<Archive> {
  let index: TarEntry[];
  try {
    index = await readTarIndex(file);
  } catch (error) {
    if (error instanceof DamagedArchiveError) throw new BackupError(`${file}: ${error.message}`);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BackupError(`${file} does not exist.`);
    throw error;
  }
  const entries = new Map(index.map((entry) => [entry.name, entry]));
  const manifestEntry = entries.get(MANIFEST_ENTRY);
  if (manifestEntry === undefined) throw new BackupError(`${file} is not a Tonearm backup (it has no manifest.json).`);
  let raw: unknown;
  try {
    raw = JSON.parse(await text(openEntry(file, manifestEntry)));
  } catch {
    throw new BackupError(`${file}: manifest.json is not valid JSON.`);
  }
  const parsed = BackupManifest.safeParse(raw);
  if (!parsed.success) {
    throw new BackupError(
      `${file}: manifest.json is not a Tonearm backup manifest of version 1 (${firstIssue(parsed.error)}). ` +
        'Nothing was restored.',
    );
  }
  return { file, manifest: parsed.data, entries };
}

/** Where the manifest first fails its schema and why, e.g. `blobs.items.3.key: "../x" is not a valid blob key`. */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'unreadable';
  return issue.path.length === 0 ? issue.message : `${issue.path.join('.')}: ${issue.message}`;
}

/** The entries the restore reads, each with the hash it must have. */
function expectedEntries(manifest: BackupManifest): { entry: string; size: number; sha256: string }[] {
  const list = [manifest.database, ...(manifest.secretKey === null ? [] : [manifest.secretKey])];
  if (manifest.blobs.included) {
    for (const item of manifest.blobs.items) list.push({ ...item, entry: blobEntry(item.kind, item.key) });
  }
  return list;
}

/** Reads every entry the restore will use and checks its size and sha256, before anything is written. */
async function verifyArchive(archive: Archive): Promise<void> {
  for (const expected of expectedEntries(archive.manifest)) {
    const entry = archive.entries.get(expected.entry);
    if (entry === undefined) throw new BackupError(`The archive is incomplete: ${expected.entry} is missing.`);
    if (entry.size !== expected.size || (await sha256Of(openEntry(archive.file, entry))) !== expected.sha256) {
      throw damaged(expected.entry);
    }
  }
}

/** For an archive that only lists the blobs: the store must hold each of them, byte for byte. */
async function verifyListedBlobs(store: BlobStore, items: readonly BlobItem[]): Promise<void> {
  for (const item of items) {
    const found = await store.stat(item.kind, item.key);
    if (found?.size !== item.size) {
      throw new BackupError(
        `The blob store lacks ${item.kind}/${item.key}, which this backup lists but does not hold.`,
      );
    }
    if ((await sha256Of(store.openRead(item.kind, item.key))) !== item.sha256) {
      throw new BackupError(`The blob store's ${item.kind}/${item.key} does not match its sha256 in manifest.json.`);
    }
  }
}

/** The migrations this code knows (a Set: a plain object's `in` would know `constructor` and `__proto__` too). */
const KNOWN_MIGRATIONS: ReadonlySet<string> = new Set(Object.keys(migrations));

function checkCompatible(manifest: BackupManifest, options: RestoreOptions): void {
  const target = options.databaseUrl === null ? 'sqlite' : 'postgres';
  if (manifest.database.kind !== target) {
    const hint =
      manifest.database.kind === 'sqlite'
        ? 'leave DATABASE_URL unset to restore it into DATA_DIR'
        : 'set DATABASE_URL to an empty PostgreSQL database';
    throw new BackupError(
      `This backup holds a${manifest.database.kind === 'sqlite' ? 'n SQLite' : ' PostgreSQL'} database: ${hint}.`,
    );
  }
  const unknown = manifest.database.migrations.filter((name) => !KNOWN_MIGRATIONS.has(name));
  if (unknown.length > 0) {
    throw new BackupError(
      `This backup comes from a newer Tonearm (schema ${unknown.at(-1) ?? ''}): restore it with that version or later.`,
    );
  }
}

/** Answers whether DATA_DIR existed (empty); refuses one that holds anything. */
async function checkDataDirEmpty(dataDir: string): Promise<boolean> {
  const found = await stat(dataDir).catch(() => null);
  if (found === null) return false;
  if (!found.isDirectory()) throw new BackupError(`DATA_DIR ${dataDir} is not a directory.`);
  const names = await readdir(dataDir);
  if (names.length > 0) {
    throw new BackupError(
      `DATA_DIR ${dataDir} is not empty (it holds ${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''}): ` +
        'a restore fills an empty DATA_DIR only. Point DATA_DIR at a new directory.',
    );
  }
  return true;
}

async function checkDatabaseEmpty(databaseUrl: string): Promise<void> {
  const database = createDatabase({ dataDir: '', databaseUrl, poolSize: 1 });
  try {
    const tables = await createBackupRepository(database.db).tableNames();
    if (tables.length > 0) {
      throw new BackupError(
        `The PostgreSQL database of DATABASE_URL is not empty (it has ${tables.length} table(s), such as ` +
          `${tables[0] ?? ''}): a restore fills an empty database only (createdb a new one).`,
      );
    }
  } finally {
    await database.destroy();
  }
}

async function checkStoreEmpty(store: BlobStore): Promise<void> {
  for (const kind of BLOB_KINDS) {
    for await (const key of store.list(kind)) {
      throw new BackupError(`The blob store is not empty (it holds ${kind}/${key}): restore into an empty one.`);
    }
  }
}

/**
 * Restores a backup made by createBackup into an empty DATA_DIR (and an empty PostgreSQL database when DATABASE_URL is
 * set). Everything is checked before anything is written: the target is empty, the archive is a backup this version
 * can read, every library's folder is there (library-folders.ts), and every entry matches its sha256. If writing then fails part way, what was written is removed.
 */
export async function restoreBackup(file: string, options: RestoreOptions): Promise<RestoreResult> {
  const archive = await openArchive(file);
  const { manifest } = archive;
  checkCompatible(manifest, options);
  const libraries = await placeLibraries(manifest.libraries, options);
  const dataDirExisted = await checkDataDirEmpty(options.dataDir);
  if (options.databaseUrl !== null) await checkDatabaseEmpty(options.databaseUrl);
  if (manifest.blobs.included) await checkStoreEmpty(options.store);
  await verifyArchive(archive);
  if (!manifest.blobs.included) await verifyListedBlobs(options.store, manifest.blobs.items);

  const written: BlobItem[] = [];
  try {
    await mkdir(options.dataDir, { recursive: true });
    if (manifest.blobs.included) {
      for (const item of manifest.blobs.items) {
        await restoreBlob(archive, options.store, item);
        written.push(item);
      }
    }
    if (manifest.secretKey !== null) {
      const key = await readEntry(archive, manifest.secretKey.entry, manifest.secretKey.sha256);
      await writeFile(path.join(options.dataDir, KEY_FILE_NAME), key, { mode: 0o600, flag: 'wx' });
    }
    await restoreDatabase(archive, options, (db) => placeRestored(db, libraries, options.now));
    return { manifest, blobsWritten: written.length, libraries };
  } catch (error) {
    await Promise.allSettled(written.map((item) => options.store.delete(item.kind, item.key)));
    await emptyDirectory(options.dataDir, dataDirExisted);
    throw error;
  }
}

/** The bytes of entry `name`, failing at the end unless they hash to `sha256` (and failing with a read error). */
function checkedEntry(archive: Archive, name: string, sha256: string): Readable {
  const entry = archive.entries.get(name);
  if (entry === undefined) throw new BackupError(`The archive is incomplete: ${name} is missing.`);
  const source = openEntry(archive.file, entry);
  const checked = verifying(sha256, name);
  source.once('error', (error) => checked.destroy(error));
  return source.pipe(checked);
}

async function restoreBlob(archive: Archive, store: BlobStore, item: BlobItem): Promise<void> {
  const staged = await store.stage(item.kind, checkedEntry(archive, blobEntry(item.kind, item.key), item.sha256));
  await staged.commit(item.key);
}

async function readEntry(archive: Archive, name: string, sha256: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of checkedEntry(archive, name, sha256)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function extractEntry(archive: Archive, name: string, sha256: string, target: string): Promise<void> {
  await pipeline(checkedEntry(archive, name, sha256), createWriteStream(target, { flags: 'wx' }));
}

/** What the restored rows need before a server starts on them: the libraries where their folders now are. */
async function placeRestored(
  db: Kysely<DB>,
  libraries: readonly LibraryPlacement[],
  now: () => string = () => new Date().toISOString(),
): Promise<void> {
  const repository = createBackupRepository(db);
  for (const placement of libraries) {
    if (placement.moved) await repository.moveLibrary(placement.library.id, placement.path);
    // As a scan would have it, were the folder gone: the songs leave the lists until the folder is back.
    if (placement.problem !== null) await repository.markLibraryMissing(placement.library.id, now());
  }
}

/** Runs `work` on the SQLite database in `file`, in one transaction. */
async function onSqliteFile(file: string, work: (db: Kysely<DB>) => Promise<void>): Promise<void> {
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: openSqliteFile(file, { mustExist: true }) }) });
  try {
    await db.transaction().execute(work);
  } finally {
    await db.destroy();
  }
}

/**
 * The database last: a restore cut short leaves no database that a server could start on half-filled. `adjust` runs
 * on the restored rows: on SQLite before the file takes its name, on PostgreSQL in a transaction right after
 * pg_restore's (pg_restore cannot run it in its own).
 */
async function restoreDatabase(
  archive: Archive,
  options: RestoreOptions,
  adjust: (db: Kysely<DB>) => Promise<void>,
): Promise<void> {
  const { entry, sha256 } = archive.manifest.database;
  if (options.databaseUrl === null) {
    const partial = path.join(options.dataDir, `${SQLITE_FILE_NAME}.partial`);
    await extractEntry(archive, entry, sha256, partial);
    await onSqliteFile(partial, adjust);
    await rename(partial, path.join(options.dataDir, SQLITE_FILE_NAME));
    return;
  }
  const work = await mkdtemp(path.join(tmpdir(), 'tonearm-restore-'));
  const database = createDatabase({ dataDir: '', databaseUrl: options.databaseUrl, poolSize: 1 });
  try {
    const dump = path.join(work, 'tonearm.pgdump');
    await extractEntry(archive, entry, sha256, dump);
    await pgRestore(options.databaseUrl, dump);
    await database.db
      .transaction()
      .execute(adjust)
      .catch((error: unknown) => {
        throw new BackupError(
          'The database was restored, but the libraries could not be pointed at their folders ' +
            `(${error instanceof Error ? error.message : String(error)}): drop the database and restore again.`,
        );
      });
  } finally {
    await database.destroy();
    await rm(work, { recursive: true, force: true });
  }
}

/** Undoes a failed restore in DATA_DIR: it was empty (or absent) before, so everything in it is the restore's. */
async function emptyDirectory(dir: string, keepDir: boolean): Promise<void> {
  if (!keepDir) {
    await rm(dir, { recursive: true, force: true });
    return;
  }
  for (const name of await readdir(dir).catch(() => []))
    await rm(path.join(dir, name), { recursive: true, force: true });
}
