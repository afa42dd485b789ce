import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { promisify } from 'node:util';
import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect, type AppSuite } from '../../test/dialects.js';
import { makeAdmin, makeArtist, makeSong, makeUser, type TestUser } from '../../test/factories.js';
import { emptyPostgresDatabase, login } from '../../test/harness.js';
import { picture, toneWav } from '../../test/media.js';
import { clientOf } from '../../test/client.js';
import { collect } from '../../test/stored.js';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createDatabase, type AppDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrations/index.js';
import type { DB } from '../db/schema.js';
import { createBlobReferencesRepository } from '../maintenance/blob-references.repository.js';
import { sweepBlobs } from '../maintenance/blob-sweep.js';
import { SetupCode } from '../setup-code.js';
import { BLOB_KINDS, type BlobKind, type BlobStore } from '../storage/blob-store.js';
import { LocalBlobStore } from '../storage/local-blob-store.js';
import { BackupError } from './backup-error.js';
import type { BackupManifest } from './backup-manifest.js';
import { createBackupRepository } from './backup.repository.js';
import { createBackup } from './backup.js';
import { referencedBlobs } from './referenced-blobs.js';
import { restoreBackup } from './restore.js';
import { openEntry, readTarIndex, TarWriter } from './tar.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Every row of every table, each table's rows in a stable order: what "the same database" means here. */
async function everyRow(db: Kysely<DB>): Promise<Record<string, string[]>> {
  const tables: Record<string, string[]> = {};
  for (const name of (await createBackupRepository(db).tableNames()).sort()) {
    const rows = await db
      .selectFrom(name as keyof DB)
      .selectAll()
      .execute();
    tables[name] = rows.map((row) => JSON.stringify(row, Object.keys(row).sort())).sort();
  }
  return tables;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Every blob of a local store with its sha256. */
async function blobHashes(store: LocalBlobStore): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  for (const kind of BLOB_KINDS) {
    for (const key of await collect(store.list(kind))) {
      hashes.set(`${kind}/${key}`, sha256(await readFile(store.localPath(kind, key))));
    }
  }
  return hashes;
}

/**
 * A copy of the archive `from` at `to` with `extra` entries added and its manifest changed by `edit`: what an archive
 * made by hand (or tampered with) looks like to a restore.
 */
async function tampered(
  from: string,
  to: string,
  edit: (manifest: BackupManifest) => void,
  extra: Record<string, Buffer> = {},
): Promise<void> {
  const tar = await TarWriter.create(to);
  let manifest: BackupManifest | null = null;
  for (const entry of await readTarIndex(from)) {
    if (entry.name === 'manifest.json') manifest = JSON.parse(await text(openEntry(from, entry))) as BackupManifest;
    else await tar.add(entry.name, openEntry(from, entry));
  }
  if (manifest === null) throw new Error(`${from} has no manifest`);
  for (const [name, bytes] of Object.entries(extra)) await tar.add(name, bytes);
  edit(manifest);
  await tar.add('manifest.json', Buffer.from(JSON.stringify(manifest)));
  await tar.finish();
}

/** A store that records every blob written to it (staged), and otherwise is `store`. */
function recording(store: LocalBlobStore): { store: LocalBlobStore; staged: string[] } {
  const staged: string[] = [];
  const spy = Object.assign(Object.create(store) as LocalBlobStore, {
    stage: (kind: BlobKind, source: Readable | Buffer) => {
      staged.push(kind);
      return store.stage(kind, source);
    },
  });
  return { store: spy, staged };
}

/** An empty restore target of the dialect: a new DATA_DIR (and a new empty PostgreSQL database). */
interface Target {
  dataDir: string;
  databaseUrl: string | null;
  store: LocalBlobStore;
  drop(): Promise<void>;
}

async function emptyTarget(t: { dialect: string }): Promise<Target> {
  const parent = await mkdtemp(path.join(tmpdir(), 'tonearm-restore-'));
  const dataDir = path.join(parent, 'data');
  const pg = t.dialect === 'postgres' ? await emptyPostgresDatabase() : null;
  return {
    dataDir,
    databaseUrl: pg?.databaseUrl ?? null,
    store: new LocalBlobStore(path.join(dataDir, 'blobs')),
    async drop() {
      await pg?.drop();
      await rm(parent, { recursive: true, force: true });
    },
  };
}

/**
 * Uploads, likes, playlist writes and song deletions, one after another as fast as the app answers, until stopped.
 * `acked` lists each write once its answer came, in order.
 */
function startTraffic(t: AppSuite, admin: TestUser, listener: TestUser, artistId: number, doomed: number[]) {
  const acked: { op: string; name: string }[] = [];
  let stopped = false;
  const admins = clientOf(t.app, admin);
  const listeners = clientOf(t.app, listener);
  async function step(i: number): Promise<void> {
    const op = ['upload', 'like', 'playlist', 'delete'][i % 4] ?? 'upload';
    const songs = await t.db.selectFrom('songs').select('id').execute();
    const some = songs[i % songs.length]?.id ?? 0;
    let status: number;
    const name = `traffic ${i}`;
    if (op === 'upload') {
      status = (
        await admins.form('POST', '/api/songs', {
          name,
          genre: 'Pop',
          artistId: String(artistId),
          songFile: { data: toneWav(300 + i * 3, 0.55), filename: 'song.wav', type: 'audio/wav' },
          imageFile: { data: await picture(500 + i), filename: 'cover.png', type: 'image/png' },
        })
      ).statusCode;
    } else if (op === 'like') {
      status = (await listeners.put(`/api/songs/${some}/like`)).statusCode;
    } else if (op === 'playlist') {
      status = (await listeners.post('/api/playlists', { name, type: 'Playlist', isPublic: false, songs: [some] }))
        .statusCode;
    } else {
      const id = doomed.shift();
      if (id === undefined) return;
      status = (await admins.delete(`/api/songs/${id}`)).statusCode;
    }
    expect(status, `${op} ${name}`).toBeLessThan(300);
    acked.push({ op, name });
  }
  const stopRequested = () => stopped;
  const done = (async () => {
    for (let i = 0; !stopRequested(); i++) await step(i);
  })();
  return {
    acked,
    async stop() {
      stopped = true;
      await done;
    },
    /** Resolves once `count` more writes were answered. */
    async waitFor(count: number) {
      const target = acked.length + count;
      while (acked.length < target) await new Promise((resolve) => setTimeout(resolve, 5));
    },
  };
}

/** The app on a restored target, as main.ts would start it: migrations, the start-up sweep, then requests. */
async function startOn(target: Target, dialect: 'sqlite' | 'postgres') {
  const database: AppDatabase = createDatabase({ dataDir: target.dataDir, databaseUrl: target.databaseUrl });
  await migrateToLatest(database.db);
  const swept = await sweepBlobs(target.store, createBlobReferencesRepository(database.db), { graceMs: 0 });
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: target.dataDir,
    ...(target.databaseUrl === null ? {} : { DATABASE_URL: target.databaseUrl }),
  });
  const app = await buildApp({ config, db: database.db, dialect, blobs: target.store, setupCode: new SetupCode() });
  return {
    app,
    db: database.db,
    swept,
    async close() {
      await app.close();
      await database.destroy();
    },
  };
}

describeEachDialect('backup and restore (%s)', (t) => {
  let admin: TestUser;
  let listener: TestUser;
  let artistId: number;
  let work: string;
  const targets: Target[] = [];

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'tonearm-backup-'));
    admin = await makeAdmin(t);
    listener = await makeUser(t);
    artistId = await makeArtist(t, admin, 'Backed Up', await picture(7));
    for (let i = 0; i < 3; i++) await makeSong(t, admin, { artistId });
  });

  afterEach(async () => {
    for (const target of targets.splice(0)) await target.drop();
  });

  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  function liveStore(): LocalBlobStore {
    if (t.blobs === null) throw new Error('the test app has no blob store');
    return t.blobs;
  }

  async function target(): Promise<Target> {
    const made = await emptyTarget(t);
    targets.push(made);
    return made;
  }

  it('backs up while uploads, likes, playlist writes and deletions run, and restores every row and blob', async () => {
    const doomed = [];
    for (let i = 0; i < 4; i++) doomed.push(await makeSong(t, admin, { artistId, name: `doomed ${i}` }));
    const traffic = startTraffic(t, admin, listener, artistId, doomed);
    await traffic.waitFor(4);
    const ackedBefore = traffic.acked.length;
    let snapshotRows: Record<string, string[]> = {};
    const file = path.join(work, 'live.tar');
    const result = await createBackup(file, {
      dataDir: t.dataDir,
      databaseUrl: t.config.databaseUrl,
      store: liveStore(),
      onSnapshot: async (db) => {
        snapshotRows = await everyRow(db);
        // The server goes on writing between the snapshot and the copy of the blobs.
        await traffic.waitFor(4);
      },
    });
    const ackedDuring = traffic.acked.length;
    await traffic.stop();

    // The snapshot is a cut of the traffic: everything answered before the backup began, not what came after it.
    const snapshotSongs = snapshotRows.songs?.map((row) => (JSON.parse(row) as { name: string }).name) ?? [];
    const uploads = traffic.acked.filter((write) => write.op === 'upload');
    for (const write of traffic.acked.slice(0, ackedBefore).filter((w) => w.op === 'upload')) {
      expect(snapshotSongs).toContain(write.name);
    }
    expect(uploads.some((write) => !snapshotSongs.includes(write.name))).toBe(true);
    expect(ackedDuring - ackedBefore).toBeGreaterThanOrEqual(4);

    const restored = await target();
    await restoreBackup(file, { dataDir: restored.dataDir, databaseUrl: restored.databaseUrl, store: restored.store });
    const server = await startOn(restored, t.dialect);
    try {
      expect(await everyRow(server.db)).toEqual(snapshotRows);
      // Every blob the rows reference, each with the hash the live store had, and nothing else.
      const hashes = await blobHashes(restored.store);
      const listed = new Map(result.manifest.blobs.items.map((item) => [`${item.kind}/${item.key}`, item.sha256]));
      expect(hashes).toEqual(listed);
      const references = await referencedBlobs(createBlobReferencesRepository(server.db));
      expect(new Set(references.map((ref) => `${ref.kind}/${ref.key}`))).toEqual(new Set(listed.keys()));
      const live = await blobHashes(liveStore());
      for (const [id, hash] of hashes) if (live.has(id)) expect(live.get(id)).toBe(hash);
      expect(server.swept).toEqual({ tempFiles: 0, audio: 0, images: 0 });

      // The restored server signs in the old accounts and plays the old songs.
      const cookie = await login(server.app, listener.username, listener.password);
      const song = await server.db.selectFrom('songs').select(['audio_key', 'audio_sha256']).executeTakeFirstOrThrow();
      const audio = await server.app.inject({ url: `/media/audio/${song.audio_key}`, headers: { cookie } });
      expect(audio.statusCode).toBe(200);
      expect(sha256(audio.rawPayload)).toBe(song.audio_sha256);
    } finally {
      await server.close();
    }
  });

  it('takes a new snapshot when a blob it references is deleted before it is copied', async () => {
    const victim = await makeSong(t, admin, { artistId, name: 'deleted mid-backup' });
    const { audio_key: audioKey } = await t.db
      .selectFrom('songs')
      .select('audio_key')
      .where('id', '=', victim)
      .executeTakeFirstOrThrow();
    const seen: boolean[] = [];
    const file = path.join(work, 'retry.tar');
    const result = await createBackup(file, {
      dataDir: t.dataDir,
      databaseUrl: t.config.databaseUrl,
      store: liveStore(),
      onSnapshot: async (db) => {
        const row = await db.selectFrom('songs').select('id').where('id', '=', victim).executeTakeFirst();
        seen.push(row !== undefined);
        // The first snapshot has the song; the server then deletes it, and its audio with it.
        if (seen.length === 1)
          expect((await clientOf(t.app, admin).delete(`/api/songs/${victim}`)).statusCode).toBe(200);
      },
    });
    expect(seen).toEqual([true, false]);
    expect(result.attempts).toBe(2);
    expect(result.manifest.blobs.items.some((item) => item.key === audioKey)).toBe(false);
  });

  it('names a missing folder or archive plainly', async () => {
    const options = { dataDir: t.dataDir, databaseUrl: t.config.databaseUrl, store: liveStore() };
    await expect(createBackup(path.join(work, 'nowhere', 'b.tar'), options)).rejects.toThrow(/nowhere does not exist/);
    const into = await target();
    await expect(restoreBackup(path.join(work, 'missing.tar'), { ...into })).rejects.toThrow(
      /missing.tar does not exist/,
    );
  });

  it('refuses a target that is not empty, and touches nothing', async () => {
    const file = path.join(work, `refuse-${t.dialect}.tar`);
    await createBackup(file, { dataDir: t.dataDir, databaseUrl: t.config.databaseUrl, store: liveStore() });
    const used = await target();
    await mkdir(used.dataDir, { recursive: true });
    await writeFile(path.join(used.dataDir, 'notes.txt'), 'mine');
    const refused = restoreBackup(file, { dataDir: used.dataDir, databaseUrl: used.databaseUrl, store: used.store });
    await expect(refused).rejects.toThrow(/is not empty/);
    expect(await readdir(used.dataDir)).toEqual(['notes.txt']);

    if (t.dialect === 'postgres') {
      // An empty DATA_DIR but the live database (it has tables): refused before anything is written.
      const fresh = await target();
      const intoLive = restoreBackup(file, {
        dataDir: fresh.dataDir,
        databaseUrl: t.config.databaseUrl,
        store: fresh.store,
      });
      await expect(intoLive).rejects.toThrow(/PostgreSQL database of DATABASE_URL is not empty/);
      await expect(stat(fresh.dataDir)).rejects.toThrow();
    }
  });

  it('refuses an archive whose bytes do not match the manifest, and leaves the target empty', async () => {
    const file = path.join(work, `corrupt-${t.dialect}.tar`);
    const { manifest } = await createBackup(file, {
      dataDir: t.dataDir,
      databaseUrl: t.config.databaseUrl,
      store: liveStore(),
    });
    const item = manifest.blobs.items.find((blob) => blob.kind === 'audio');
    const entry = (await readTarIndex(file)).find((e) => e.name === `blobs/audio/${item?.key ?? ''}`);
    if (entry === undefined) throw new Error('the archive holds no audio');
    const bytes = await readFile(file);
    const middle = entry.offset + Math.floor(entry.size / 2);
    bytes[middle] = (bytes[middle] ?? 0) ^ 0xff;
    await writeFile(file, bytes);
    const damaged = await target();
    const restore = restoreBackup(file, {
      dataDir: damaged.dataDir,
      databaseUrl: damaged.databaseUrl,
      store: damaged.store,
    });
    await expect(restore).rejects.toThrow(`The archive is damaged: blobs/audio/${item?.key ?? ''} does not match`);
    await expect(stat(damaged.dataDir)).rejects.toThrow();
    if (damaged.databaseUrl !== null) {
      const db = createDatabase({ dataDir: '', databaseUrl: damaged.databaseUrl, poolSize: 1 });
      expect(await createBackupRepository(db.db).tableNames()).toEqual([]);
      await db.destroy();
    }
  });

  /** The target is as it was: no DATA_DIR (so no blob store under it), no blob staged, no table in PostgreSQL. */
  async function expectUntouched(into: Target, staged: readonly string[]): Promise<void> {
    expect(staged).toEqual([]);
    await expect(stat(into.dataDir)).rejects.toThrow(/ENOENT/);
    expect(await collect(into.store.list('audio'))).toEqual([]);
    if (into.databaseUrl !== null) {
      const db = createDatabase({ dataDir: '', databaseUrl: into.databaseUrl, poolSize: 1 });
      expect(await createBackupRepository(db.db).tableNames()).toEqual([]);
      await db.destroy();
    }
  }

  it('refuses a blob key that would leave the store before it writes anything, blob or database', async () => {
    const file = path.join(work, `keys-${t.dialect}.tar`);
    const { manifest } = await createBackup(file, {
      dataDir: t.dataDir,
      databaseUrl: t.config.databaseUrl,
      store: liveStore(),
    });
    const bytes = Buffer.from('not a song');
    for (const [i, key] of ['../../x', '/x', 'ab/../../x'].entries()) {
      // Listed after the good blobs, and in the archive with its right hash: only its key is wrong.
      const bad = path.join(work, `bad-key-${t.dialect}-${i}.tar`);
      const item = { kind: 'audio' as const, key, size: bytes.length, sha256: sha256(bytes) };
      await tampered(file, bad, (edited) => edited.blobs.items.push(item), { [`blobs/audio/${key}`]: bytes });
      const into = await target();
      const { store, staged } = recording(into.store);
      const restore = restoreBackup(bad, { dataDir: into.dataDir, databaseUrl: into.databaseUrl, store });
      await expect(restore, key).rejects.toThrow(BackupError);
      await expect(restore, key).rejects.toThrow(
        `manifest.json is not a Tonearm backup manifest of version 1 (blobs.items.${manifest.blobs.items.length}.key: ` +
          `${JSON.stringify(key)} is not a valid blob key). Nothing was restored.`,
      );
      await expectUntouched(into, staged);
    }
  });

  it('refuses a backup naming a migration this code does not know, even one named like an object property', async () => {
    const file = path.join(work, `migrations-${t.dialect}.tar`);
    await createBackup(file, { dataDir: t.dataDir, databaseUrl: t.config.databaseUrl, store: liveStore() });
    for (const name of ['__proto__', 'constructor', 'toString', '999-future']) {
      const newer = path.join(work, `migration-${t.dialect}-${name}.tar`);
      await tampered(file, newer, (edited) => edited.database.migrations.push(name));
      const into = await target();
      const { store, staged } = recording(into.store);
      await expect(
        restoreBackup(newer, { dataDir: into.dataDir, databaseUrl: into.databaseUrl, store }),
        name,
      ).rejects.toThrow(
        `This backup comes from a newer Tonearm (schema ${name}): restore it with that version or later.`,
      );
      await expectUntouched(into, staged);
    }
  });

  it('lists the blobs of a remote store instead of copying them, and a restore checks the store holds them', async () => {
    const local = liveStore();
    // A store that is not on this disk, as S3 is: localPath answers null, everything else is the live store's.
    const remote: BlobStore = Object.assign(Object.create(local) as LocalBlobStore, { localPath: () => null });
    const file = path.join(work, `remote-${t.dialect}.tar`);
    const { manifest } = await createBackup(file, {
      dataDir: t.dataDir,
      databaseUrl: t.config.databaseUrl,
      store: remote,
    });
    expect(manifest.blobs.included).toBe(false);
    expect(manifest.blobs.items.length).toBeGreaterThan(4);
    expect((await readTarIndex(file)).some((entry) => entry.name.startsWith('blobs/'))).toBe(false);
    for (const item of manifest.blobs.items) {
      expect(item.sha256).toBe(sha256(await readFile(local.localPath(item.kind, item.key))));
    }
    const restored = await target();
    const into = { dataDir: restored.dataDir, databaseUrl: restored.databaseUrl, store: remote };
    const result = await restoreBackup(file, into);
    expect(result.blobsWritten).toBe(0);

    // The same archive against a store that lacks the blobs is refused.
    const other = await target();
    const lacking = Object.assign(Object.create(other.store) as LocalBlobStore, { localPath: () => null });
    await expect(
      restoreBackup(file, { dataDir: other.dataDir, databaseUrl: other.databaseUrl, store: lacking }),
    ).rejects.toThrow(BackupError);
  });
});

describe('npm run backup / npm run restore', () => {
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'tonearm-backup-cli-'));
  });

  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  const cli = (script: 'backup' | 'restore', file: string, dataDir: string): Promise<{ code: number; out: string }> =>
    run('npm', ['run', '--silent', script, '--', path.join(work, file)], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    }).then(
      ({ stdout }) => ({ code: 0, out: stdout }),
      (error: unknown) => {
        const failed = error as { code: number; stderr: string };
        return { code: failed.code, out: failed.stderr };
      },
    );

  function expectOutcome(outcome: { code: number; out: string }, code: number, out: RegExp): void {
    expect(outcome.out).toMatch(out);
    expect(outcome.code).toBe(code);
  }

  it('round-trips a DATA_DIR through a tar that GNU tar reads, and refuses to overwrite or to restore twice', async () => {
    const source = path.join(work, 'source');
    const database = createDatabase({ dataDir: source });
    await migrateToLatest(database.db);
    await database.destroy();
    await writeFile(path.join(source, 'secret.key'), 'k'.repeat(64));

    const backup = await cli('backup', 'nightly.tar', source);
    expect(backup.out).toContain('Backed up the SQLite database (schema');
    expect(backup.code).toBe(0);
    const listing = (await run('tar', ['tf', path.join(work, 'nightly.tar')])).stdout.split('\n');
    expect(listing).toEqual(expect.arrayContaining(['database/tonearm.db', 'data/secret.key', 'manifest.json']));
    const { stdout } = await run('tar', ['xOf', path.join(work, 'nightly.tar'), 'manifest.json']);
    const manifest = JSON.parse(stdout) as BackupManifest;
    expect(manifest.database.migrations.at(-1)).toMatch(/^\d{3}-/);

    expectOutcome(await cli('backup', 'nightly.tar', source), 1, /already exists/);

    const target = path.join(work, 'target');
    expectOutcome(await cli('restore', 'nightly.tar', target), 0, /^Restored/);
    expect(await readFile(path.join(target, 'secret.key'), 'utf8')).toBe('k'.repeat(64));
    expectOutcome(await cli('restore', 'nightly.tar', target), 1, /is not empty/);
  }, 120_000);

  it('refuses a blob key that leaves the store in one line, without a stack, and writes nothing', async () => {
    const source = path.join(work, 'keyed');
    const database = createDatabase({ dataDir: source });
    await migrateToLatest(database.db);
    await database.destroy();
    const store = new LocalBlobStore(path.join(source, 'blobs'));
    const good = path.join(work, 'keyed.tar');
    await createBackup(good, { dataDir: source, databaseUrl: null, store });
    const bytes = Buffer.from('not a song');
    const item = { kind: 'audio' as const, key: '../../escaped', size: bytes.length, sha256: sha256(bytes) };
    await tampered(good, path.join(work, 'escaping.tar'), (manifest) => manifest.blobs.items.push(item), {
      'blobs/audio/../../escaped': bytes,
    });

    const target = path.join(work, 'escape-target');
    const outcome = await cli('restore', 'escaping.tar', target);
    expect(outcome.out.trimEnd().split('\n')).toEqual([
      `Restore failed: ${path.join(work, 'escaping.tar')}: manifest.json is not a Tonearm backup manifest of version 1 ` +
        '(blobs.items.0.key: "../../escaped" is not a valid blob key). Nothing was restored.',
    ]);
    expect(outcome.code).toBe(1);
    await expect(stat(target)).rejects.toThrow(/ENOENT/);
    await expect(stat(path.join(work, 'escaped'))).rejects.toThrow(/ENOENT/);
  }, 120_000);
});
