import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Library, LibraryList, Playlist, Song } from '@tonearm/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { encodeAudio, encodePicture, requireFfmpeg } from '../../test/audio-formats.js';
import { clientOf } from '../../test/client.js';
import { describeEachDialect } from '../../test/dialects.js';
import { makeAdmin, makeArtist, makePlaylist, makeSong, makeUser, type TestUser } from '../../test/factories.js';
import { emptyPostgresDatabase } from '../../test/harness.js';
import { collect, filesUnder } from '../../test/stored.js';
import { buildAppWith } from '../app.js';
import { loadConfig } from '../config.js';
import { createDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrations/index.js';
import { createBlobReferencesRepository } from '../maintenance/blob-references.repository.js';
import { sweepBlobs } from '../maintenance/blob-sweep.js';
import { isLibraryKey } from '../media/library-keys.js';
import { SetupCode } from '../setup-code.js';
import { LocalBlobStore } from '../storage/local-blob-store.js';
import { BackupError } from './backup-error.js';
import type { BackupManifest } from './backup-manifest.js';
import { createBackupRepository } from './backup.repository.js';
import { createBackup } from './backup.js';
import { restoreBackup, type RestoreOptions } from './restore.js';
import { readTarIndex } from './tar.js';

requireFfmpeg();

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

const SongList = z.array(Song);

/** An empty restore target of the dialect: a new DATA_DIR (and a new empty PostgreSQL database). */
interface Target {
  dataDir: string;
  databaseUrl: string | null;
  store: LocalBlobStore;
  drop(): Promise<void>;
}

async function emptyTarget(dialect: string): Promise<Target> {
  const parent = await mkdtemp(path.join(tmpdir(), 'tonearm-restore-lib-'));
  const dataDir = path.join(parent, 'data');
  const pg = dialect === 'postgres' ? await emptyPostgresDatabase() : null;
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

/** The app on a restored target as main.ts starts it (migrations, the start-up sweep), its start-up scans let run. */
async function startOn(target: Target, dialect: 'sqlite' | 'postgres') {
  const database = createDatabase({ dataDir: target.dataDir, databaseUrl: target.databaseUrl });
  await migrateToLatest(database.db);
  const swept = await sweepBlobs(target.store, createBlobReferencesRepository(database.db), { graceMs: 0 });
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: target.dataDir,
    SCAN_WATCH: '0',
    ...(target.databaseUrl === null ? {} : { DATABASE_URL: target.databaseUrl }),
  });
  const { app, composition } = await buildAppWith({
    config,
    db: database.db,
    dialect,
    blobs: target.store,
    setupCode: new SetupCode(),
  });
  await app.ready();
  const settled = () => composition.services.libraries.settled();
  await settled();
  return {
    app,
    db: database.db,
    swept,
    settled,
    async close() {
      await settled();
      await app.close();
      await database.destroy();
    },
  };
}

describeEachDialect('backup and restore of libraries (%s)', { env: { SCAN_WATCH: '0' } }, (t) => {
  let admin: TestUser;
  let listener: TestUser;
  let base: string;
  let root: string;
  let moved: string;
  let library: Library;
  let archive: string;
  let manifest: BackupManifest;
  let attempts: number;
  let playlist: Playlist;
  let uploaded: number;
  const bytesOf = new Map<string, Buffer>();
  const targets: Target[] = [];

  const libraryFiles = {
    Dawn: path.join('Ann Arbor', 'First Light', '01 Dawn.mp3'),
    Noon: path.join('Ann Arbor', 'First Light', '02 Noon.flac'),
    Dusk: path.join('Ann Arbor', 'Second Wind', 'Dusk.ogg'),
  };

  beforeAll(async () => {
    admin = await makeAdmin(t);
    listener = await makeUser(t);
    base = await mkdtemp(path.join(tmpdir(), 'tonearm-backup-library-'));
    root = path.join(base, 'Music');
    moved = path.join(base, 'Moved here');
    await mkdir(path.join(root, 'Ann Arbor', 'First Light'), { recursive: true });
    await mkdir(path.join(root, 'Ann Arbor', 'Second Wind'), { recursive: true });
    const picture = path.join(base, 'embedded.png');
    await encodePicture(picture, 64, 'blue');
    const album = { artist: 'Ann Arbor', genre: 'Rock' };
    await encodeAudio(path.join(root, libraryFiles.Dawn), 'mp3', {
      tags: { ...album, title: 'Dawn', album: 'First Light', track: '1' },
      picture,
      frequency: 330,
    });
    await encodeAudio(path.join(root, libraryFiles.Noon), 'flac', {
      tags: { ...album, title: 'Noon', album: 'First Light', track: '2' },
      frequency: 440,
    });
    await encodeAudio(path.join(root, libraryFiles.Dusk), 'ogg', {
      tags: { ...album, title: 'Dusk', album: 'Second Wind' },
      frequency: 550,
    });
    await encodePicture(path.join(root, 'Ann Arbor', 'Second Wind', 'cover.png'), 48, 'green');
    for (const [name, file] of Object.entries(libraryFiles)) bytesOf.set(name, await readFile(path.join(root, file)));

    const added = await t.as(admin).post('/api/libraries', { path: root });
    expect(added.statusCode, added.body).toBe(201);
    await t.composition.services.libraries.settled();
    library = await t.as(admin).json(`/api/libraries/${Library.parse(added.json()).id}`, Library);
    expect(library.songCount).toBe(3);

    // A stored upload beside the library, a like and a playlist over both.
    uploaded = await makeSong(t, admin, { artistId: await makeArtist(t, admin, 'Uploader'), name: 'Uploaded' });
    const songs = await t.as(listener).json('/api/songs', SongList);
    const dawn = songs.find((song) => song.name === 'Dawn');
    const noon = songs.find((song) => song.name === 'Noon');
    if (dawn === undefined || noon === undefined) throw new Error('the library songs are not listed');
    expect((await t.as(listener).put(`/api/songs/${dawn.id}/like`)).statusCode).toBeLessThan(300);
    playlist = await makePlaylist(t, listener, { name: 'Mixed', isPublic: false, songs: [dawn.id, noon.id, uploaded] });
    // Dawn's cover has its thumbnails made (in the store); Dusk's folder cover has none yet.
    expect((await t.as(listener).get(dawn.imgLink)).statusCode).toBe(200);

    archive = path.join(base, 'backup.tar');
    const result = await createBackup(archive, {
      dataDir: t.dataDir,
      databaseUrl: t.config.databaseUrl,
      store: liveStore(),
    });
    manifest = result.manifest;
    attempts = result.attempts;
  });

  afterEach(async () => {
    // Every test leaves the folder where the library's path says.
    if ((await stat(moved).catch(() => null)) !== null) {
      await rm(root, { recursive: true, force: true });
      await rename(moved, root);
    }
    for (const target of targets.splice(0)) await target.drop();
  });

  afterAll(async () => {
    // The servers read the folder in place: nothing was written into it.
    expect((await filesUnder(root)).sort()).toEqual(['01 Dawn.mp3', '02 Noon.flac', 'Dusk.ogg', 'cover.png']);
    await rm(base, { recursive: true, force: true });
  });

  function liveStore(): LocalBlobStore {
    if (t.blobs === null) throw new Error('the test app has no blob store');
    return t.blobs;
  }

  async function target(): Promise<Target> {
    const made = await emptyTarget(t.dialect);
    targets.push(made);
    return made;
  }

  const restoreInto = (into: Target, options: Partial<RestoreOptions> = {}) =>
    restoreBackup(archive, { dataDir: into.dataDir, databaseUrl: into.databaseUrl, store: into.store, ...options });

  /** The restored server plays every library song from `folder`, byte for byte, and keeps the like and playlist. */
  async function expectEverythingBack(server: Awaited<ReturnType<typeof startOn>>, folder: string): Promise<void> {
    const as = clientOf(server.app, listener);
    const songs = await as.json('/api/songs', SongList);
    expect(songs.map((song) => song.name).sort()).toEqual(['Dawn', 'Dusk', 'Noon', 'Uploaded']);
    for (const [name, bytes] of bytesOf) {
      const song = songs.find((candidate) => candidate.name === name);
      const audio = await as.get(song?.link ?? '');
      expect(audio.statusCode, name).toBe(200);
      expect(audio.rawPayload.equals(bytes), name).toBe(true);
      const part = await as.get(song?.link ?? '', { headers: { range: 'bytes=100-199' } });
      expect(part.statusCode).toBe(206);
      expect(part.rawPayload.equals(bytes.subarray(100, 200))).toBe(true);
    }
    const liked = await as.json('/api/songs/liked', SongList);
    expect(liked.map((song) => [song.name, song.available])).toEqual([['Dawn', true]]);
    const mine = await as.json(`/api/playlists/${playlist.id}`, Playlist);
    expect(mine.songIds).toEqual(playlist.songIds);
    // Dusk's cover thumbnail was never made: it is made now, from the folder the library is in.
    const dusk = songs.find((song) => song.name === 'Dusk');
    expect((await as.get(dusk?.imgLink ?? '')).statusCode).toBe(200);
    const libraries = await clientOf(server.app, admin).json('/api/libraries', LibraryList);
    expect(libraries.libraries.map((item) => [item.id, item.path, item.songCount])).toEqual([[library.id, folder, 3]]);
  }

  it('lists the library in the manifest, copies none of its files, and takes only the thumbnails that were made', async () => {
    expect(attempts).toBe(1);
    const sizes = [...bytesOf.values()].reduce((sum, bytes) => sum + bytes.length, 0);
    expect(manifest.libraries).toEqual([{ id: library.id, name: 'Music', path: root, files: 3, bytes: sizes }]);
    expect(manifest.blobs.items.some((item) => isLibraryKey(item.key))).toBe(false);
    const entries = (await readTarIndex(archive)).map((entry) => entry.name);
    expect(entries.filter((name) => name.startsWith('blobs/audio/'))).toHaveLength(1);
    // The thumbnails in the store are in the archive; the covers' originals (in the folder) are not.
    const thumbnails = await collect(liveStore().list('image'));
    const rows = await t.db.selectFrom('library_images').select('image_key').execute();
    for (const { image_key: key } of rows) expect(entries).not.toContain(`blobs/image/${key}`);
    for (const key of thumbnails) expect(entries).toContain(`blobs/image/${key}`);
  });

  it('restores at the same path: songs, likes and playlists back, and streamable', async () => {
    const into = await target();
    const result = await restoreInto(into);
    expect(result.libraries).toEqual([{ library: manifest.libraries[0], path: root, moved: false, problem: null }]);
    const server = await startOn(into, t.dialect);
    try {
      expect(server.swept).toEqual({ tempFiles: 0, audio: 0, images: 0 });
      await expectEverythingBack(server, root);
    } finally {
      await server.close();
    }
  });

  it('restores a moved folder given by --library-path, by library id or by old path', async () => {
    await rename(root, moved);
    for (const remap of [`${library.id}=${moved}`, `${root}/=${moved}/`]) {
      const into = await target();
      const result = await restoreInto(into, { libraryPaths: [remap] });
      expect(result.libraries[0]).toMatchObject({ path: moved, moved: true, problem: null });
      const server = await startOn(into, t.dialect);
      try {
        await expectEverythingBack(server, moved);
        const audioKeys = await server.db.selectFrom('songs').select('audio_key').execute();
        expect(audioKeys.filter((row) => isLibraryKey(row.audio_key))).toHaveLength(3);
      } finally {
        await server.close();
      }
    }
  });

  /** The target is as it was: no DATA_DIR, no table in PostgreSQL. */
  async function expectUntouched(into: Target): Promise<void> {
    await expect(stat(into.dataDir)).rejects.toThrow(/ENOENT/);
    if (into.databaseUrl !== null) {
      const db = createDatabase({ dataDir: '', databaseUrl: into.databaseUrl, poolSize: 1 });
      expect(await createBackupRepository(db.db).tableNames()).toEqual([]);
      await db.destroy();
    }
  }

  it('refuses a missing or empty folder, and a --library-path naming no library or no absolute path', async () => {
    await rename(root, moved);
    const name = `library ${library.id} "Music" (3 files) at ${root}`;
    const cases: [Partial<RestoreOptions>, string][] = [
      [{}, `${name}: The folder is not there (is the drive mounted?)`],
      [{ libraryPaths: [`${library.id}=${path.join(base, 'nowhere')}`] }, 'The folder is not there'],
      [{ libraryPaths: [`99=${moved}`] }, '--library-path 99=' + moved + ': names no library of this backup'],
      [{ libraryPaths: [`/elsewhere=${moved}`] }, 'names no library of this backup'],
      [{ libraryPaths: [`${library.id}=Moved here`] }, 'the new path must be absolute'],
      [{ libraryPaths: [`${library.id}=${moved}`, `${root}=${moved}`] }, `names library ${library.id} twice`],
    ];
    for (const [options, message] of cases) {
      const into = await target();
      const restore = restoreInto(into, options);
      await expect(restore, JSON.stringify(options)).rejects.toThrow(BackupError);
      await expect(restore, JSON.stringify(options)).rejects.toThrow(message);
      await expectUntouched(into);
    }
    const refused = await restoreInto(await target()).catch((error: unknown) => error as Error);
    expect((refused as Error).message).toContain('--allow-missing-libraries');
    expect((refused as Error).message).toContain('Nothing was restored.');

    // An empty folder where the library was (a drive not mounted) is refused too.
    await mkdir(root);
    const into = await target();
    await expect(restoreInto(into)).rejects.toThrow(`${name}: The folder is empty (is the drive mounted?)`);
    await expectUntouched(into);
  });

  it('with --allow-missing-libraries, restores the songs as missing until the folder is back', async () => {
    await rename(root, moved);
    const into = await target();
    const result = await restoreInto(into, { allowMissingLibraries: true, now: () => '2030-01-01T00:00:00.000Z' });
    expect(result.libraries[0]?.problem).toBe('The folder is not there (is the drive mounted?)');
    const server = await startOn(into, t.dialect);
    try {
      const as = clientOf(server.app, listener);
      expect((await as.json('/api/songs', SongList)).map((song) => song.name)).toEqual(['Uploaded']);
      const liked = await as.json('/api/songs/liked', SongList);
      expect(liked.map((song) => [song.name, song.available])).toEqual([['Dawn', false]]);

      await rename(moved, root);
      const scan = await clientOf(server.app, admin).post(`/api/libraries/${library.id}/scan`);
      expect(scan.statusCode, scan.body).toBe(200);
      await server.settled();
      await expectEverythingBack(server, root);
    } finally {
      await server.close();
    }
  });
});

describe('npm run restore with libraries', () => {
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'tonearm-restore-cli-'));
  });

  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  const restore = (dataDir: string, ...args: string[]): Promise<{ code: number; out: string }> =>
    run('npm', ['run', '--silent', 'restore', '--', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    }).then(
      ({ stdout }) => ({ code: 0, out: stdout }),
      (error: unknown) => {
        const failed = error as { code: number; stderr: string };
        return { code: failed.code, out: failed.stderr };
      },
    );

  it('refuses a missing library folder with exit 1, and takes --library-path', async () => {
    const folder = path.join(work, 'Music');
    await mkdir(folder);
    await writeFile(path.join(folder, 'a.mp3'), 'not read by a restore');
    const source = path.join(work, 'source');
    const database = createDatabase({ dataDir: source });
    await migrateToLatest(database.db);
    await database.db
      .insertInto('libraries')
      .values({ name: 'Music', path: folder, created_at: new Date().toISOString() })
      .execute();
    await database.destroy();
    const archive = path.join(work, 'with-library.tar');
    await createBackup(archive, {
      dataDir: source,
      databaseUrl: null,
      store: new LocalBlobStore(path.join(source, 'b')),
    });
    const moved = path.join(work, 'Moved');
    await rename(folder, moved);

    const refused = await restore(path.join(work, 'refused'), archive);
    expect(refused.out).toContain(`Restore failed: The folder of a library of this backup cannot be read here:\n`);
    expect(refused.out).toContain(`library 1 "Music" (0 files) at ${folder}: The folder is not there`);
    expect(refused.code).toBe(1);
    await expect(stat(path.join(work, 'refused'))).rejects.toThrow(/ENOENT/);

    expect((await restore(path.join(work, 'usage'), '--library-path', archive)).code).toBe(2);

    const target = path.join(work, 'target');
    const restored = await restore(target, '--library-path', `1=${moved}`, archive);
    expect(restored.out).toContain(`Library 1 "Music" (0 files) moved from ${folder} to ${moved}.`);
    expect(restored.code).toBe(0);
    const db = createDatabase({ dataDir: target });
    expect(await db.db.selectFrom('libraries').select(['id', 'path']).execute()).toEqual([{ id: 1, path: moved }]);
    await db.destroy();
  }, 120_000);
});
