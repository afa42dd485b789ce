import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { link, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { KEY_FILE_NAME } from '../modules/subsonic/secret-box.js';
import type { BlobStore } from '../storage/blob-store.js';
import { BackupError } from './backup-error.js';
import { BackupManifest, blobEntry, MANIFEST_ENTRY, SECRET_KEY_ENTRY, type BlobItem } from './backup-manifest.js';
import {
  takeSnapshot,
  type DatabaseLocation,
  type DatabaseSnapshot,
  type SnapshotObserver,
} from './database-snapshot.js';
import type { BlobRef } from './referenced-blobs.js';
import { TarWriter } from './tar.js';

export interface BackupOptions extends DatabaseLocation {
  store: BlobStore;
  /** Sees the database exactly as each snapshot holds it, while the backup runs (the tests read every row with it). */
  onSnapshot?: SnapshotObserver;
  /** Snapshots tried before giving up when blobs keep disappearing under the backup (see createBackup). */
  maxAttempts?: number;
}

export interface BackupResult {
  manifest: BackupManifest;
  /** Snapshots taken: more than one when a referenced blob was deleted before it was copied. */
  attempts: number;
  /** Size of the archive. */
  bytes: number;
}

const DEFAULT_MAX_ATTEMPTS = 5;
/** Any valid key: only whether the store answers a local path matters. */
const PROBE_KEY = 'probe';

/** A store whose blobs are files here (their bytes go in the archive) rather than objects elsewhere (only listed). */
export function storesBlobsLocally(store: BlobStore): boolean {
  return store.localPath('audio', PROBE_KEY) !== null;
}

const idOf = (ref: BlobRef) => `${ref.kind}/${ref.key}`;

async function sha256Of(source: AsyncIterable<Buffer>): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of source) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { size, sha256: hash.digest('hex') };
}

/**
 * Copies one blob into the archive (or, for a remote store, reads it to hash it). Null when the blob is gone: deleted
 * after the snapshot was taken, since the rows that referenced it changed.
 */
async function copyBlob(tar: TarWriter, store: BlobStore, ref: BlobRef, include: boolean): Promise<BlobItem | null> {
  if ((await store.stat(ref.kind, ref.key)) === null) return null;
  try {
    const source = store.openRead(ref.kind, ref.key);
    const written = include ? await tar.add(blobEntry(ref.kind, ref.key), source) : await sha256Of(source);
    return { ...ref, ...written };
  } catch (error) {
    if ((await store.stat(ref.kind, ref.key)) === null) return null;
    throw error;
  }
}

async function fileOrNull(file: string): Promise<Buffer | null> {
  return readFile(file).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  });
}

/**
 * Writes a consistent backup of a running server to `file` (which must not exist): a tar of the database snapshot,
 * the blobs it references (or only their list, for a remote store), DATA_DIR/secret.key when there is one, and
 * manifest.json last. Libraries are listed there (folder, file count and size), their files never copied: a library
 * song's audio is a file of its folder, and its covers' thumbnails are copied only when they were made.
 *
 * Consistency (docs/design.md, "Backups"): the database is snapshotted first, then each blob the snapshot references is
 * copied. Blobs are content-addressed and never change, and a blob is committed before the row that references it,
 * so every blob a snapshot references existed when it was taken. One can only disappear afterwards, when a change made
 * after the snapshot stopped referencing it and the server deleted it. Then the snapshot is retaken: the new one no
 * longer references that blob, and only the blobs not copied yet are copied. A blob missing from two snapshots in a
 * row is really missing from the store, and the backup fails rather than produce an archive that restores broken.
 */
export async function createBackup(file: string, options: BackupOptions): Promise<BackupResult> {
  if (await stat(file).catch(() => null)) {
    throw new BackupError(`${file} already exists: choose a new name (a backup never overwrites another).`);
  }
  const folder = path.dirname(file);
  if (!(await stat(folder).catch(() => null))?.isDirectory())
    throw new BackupError(`The folder ${folder} does not exist.`);
  // Beside the archive, not in /tmp (often a small tmpfs): the database snapshot can be large.
  const work = await mkdtemp(path.join(folder, '.tonearm-backup-'));
  try {
    const partial = path.join(work, 'archive.tar');
    const tar = await TarWriter.create(partial);
    let result: Omit<BackupResult, 'bytes'>;
    try {
      result = await writeArchive(tar, work, options);
      await tar.finish();
    } catch (error) {
      await tar.abandon();
      throw error;
    }
    // A hard link, not a rename: it fails instead of replacing a file that appeared at `file` meanwhile.
    await link(partial, file).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      throw new BackupError(`${file} appeared while the backup ran: the backup was not written.`);
    });
    return { ...result, bytes: (await stat(file)).size };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function writeArchive(
  tar: TarWriter,
  work: string,
  options: BackupOptions,
): Promise<Omit<BackupResult, 'bytes'>> {
  const include = storesBlobsLocally(options.store);
  const copied = new Map<string, BlobItem>();
  let missingBefore = new Set<string>();
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  for (let attempt = 1; ; attempt++) {
    const snapshot = await takeSnapshot(options, path.join(work, `snapshot-${attempt}`), options.onSnapshot);
    const missing: string[] = [];
    for (const ref of snapshot.blobs) {
      if (copied.has(idOf(ref))) continue;
      const item = await copyBlob(tar, options.store, ref, include);
      if (item !== null) copied.set(idOf(ref), item);
      // A thumbnail of a library's cover not made yet (or any more) is made again from the folder.
      else if (ref.required) missing.push(idOf(ref));
    }
    if (missing.length === 0) {
      const manifest = await finishArchive(tar, snapshot, copied, include, options.dataDir);
      return { manifest, attempts: attempt };
    }
    const lost = missing.filter((id) => missingBefore.has(id));
    if (lost.length > 0) {
      throw new BackupError(
        `The database references ${lost.length} blob(s) missing from the store (first: ${lost[0]}): ` +
          'a restore of this state would not play them. Nothing was written.',
      );
    }
    if (attempt >= maxAttempts) {
      throw new BackupError(`Blobs kept being deleted during the backup (${attempt} snapshots): try again later.`);
    }
    missingBefore = new Set(missing);
    await rm(snapshot.file, { force: true });
  }
}

async function finishArchive(
  tar: TarWriter,
  snapshot: DatabaseSnapshot,
  copied: ReadonlyMap<string, BlobItem>,
  include: boolean,
  dataDir: string,
): Promise<BackupManifest> {
  const database = await tar.add(snapshot.entry, createReadStream(snapshot.file));
  const secret = await fileOrNull(path.join(dataDir, KEY_FILE_NAME));
  const secretKey = secret === null ? null : { entry: SECRET_KEY_ENTRY, ...(await tar.add(SECRET_KEY_ENTRY, secret)) };
  const items = snapshot.blobs.flatMap((ref) => {
    const item = copied.get(idOf(ref));
    if (item === undefined && ref.required) throw new Error(`Blob ${idOf(ref)} was not copied`);
    return item === undefined ? [] : [item];
  });
  const manifest: BackupManifest = {
    format: 'tonearm-backup',
    version: 1,
    createdAt: new Date().toISOString(),
    database: { kind: snapshot.kind, entry: snapshot.entry, ...database, migrations: snapshot.migrations },
    secretKey,
    blobs: { included: include, items },
    libraries: snapshot.libraries,
  };
  await tar.add(MANIFEST_ENTRY, Buffer.from(JSON.stringify(BackupManifest.parse(manifest), null, 2)));
  return manifest;
}
