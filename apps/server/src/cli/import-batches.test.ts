import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Song, THUMBNAIL_WIDTHS } from '@tonearm/contract';
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { describeEachDialect, type AppSuite } from '../../test/dialects.js';
import { makeUser } from '../../test/factories.js';
import { picture, toneWav } from '../../test/media.js';
import { artistCount, blobCounts, songCount, testBlobStore } from '../../test/stored.js';
import { composeCatalogue } from '../catalogue-composition.js';
import { stageAudio, stageImage } from '../media/staging.js';
import type { BatchSongInput } from '../modules/songs/song-import.service.js';
import type { BlobKind, BlobStore, StagedBlob } from '../storage/blob-store.js';
import { ALREADY_IMPORTED, importFolder } from './import-folder.js';
import { tagWav, type AudioTags } from './tagged-wav.js';

/** Blobs an image is stored as: the original and one thumbnail per width. */
const FILES_PER_IMAGE = 1 + THUMBNAIL_WIDTHS.length;

/** A blob store whose commits fail (as a full or failing disk would) from the `failAt`-th on, `times` times. */
function failingCommits(store: BlobStore, failAt: number, times = Number.POSITIVE_INFINITY): BlobStore {
  let commits = 0;
  let failures = 0;
  const wrap = (staged: StagedBlob): StagedBlob => ({
    kind: staged.kind,
    size: staged.size,
    tempPath: staged.tempPath,
    discard: () => staged.discard(),
    async commit(key) {
      commits += 1;
      if (commits >= failAt && failures < times) {
        failures += 1;
        throw Object.assign(new Error('EIO: i/o error, rename (simulated)'), { code: 'EIO' });
      }
      return staged.commit(key);
    },
  });
  return Object.assign(Object.create(store) as BlobStore, {
    stage: async (kind: BlobKind, source: Readable | Buffer) => wrap(await store.stage(kind, source)),
  });
}

/** Makes the database refuse any song named `name`, on either dialect (a row-level failure at write time). */
async function refuseSongsNamed(t: AppSuite, name: string): Promise<void> {
  if (t.dialect === 'postgres') {
    await sql`create function refuse_song() returns trigger language plpgsql as $$
      begin
        if new.name = ${sql.lit(name)} then raise exception 'the database refused this row'; end if;
        return new;
      end $$`.execute(t.db);
    await sql`create trigger refuse_song before insert on songs for each row execute function refuse_song()`.execute(
      t.db,
    );
  } else {
    await sql`create trigger refuse_song before insert on songs when new.name = ${sql.lit(name)}
      begin select raise(abort, 'the database refused this row'); end`.execute(t.db);
  }
}

/** Every blob on disk is used by a row, and no staged temp file is left. */
async function expectNoOrphanedBlobs(t: AppSuite): Promise<void> {
  const rows = await t.db.selectFrom('songs').select(['audio_key', 'image_key']).execute();
  const audio = new Set(rows.map((row) => row.audio_key));
  const images = new Set(rows.map((row) => row.image_key));
  expect(await blobCounts(t.dataDir)).toEqual({ audio: audio.size, image: images.size * FILES_PER_IMAGE, tmp: 0 });
}

describeEachDialect('importing in batches (%s)', { fresh: 'each' }, (t) => {
  let folder: string;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'tonearm-import-batches-'));
  });

  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  /** A tagged WAV whose audio is distinct per `tone`. */
  async function song(file: string, tone: number, tags: AudioTags): Promise<string> {
    const target = path.join(folder, file);
    await writeFile(target, tagWav(toneWav(tone), { genre: 'Rock', ...tags }));
    return target;
  }

  function catalogueOn(store: BlobStore = testBlobStore(t.dataDir)) {
    const catalogue = composeCatalogue({ db: t.db, dialect: t.dialect, blobs: store });
    const addBatch = vi.spyOn(catalogue.imports, 'addBatch');
    const batchSizes = () => addBatch.mock.calls.map(([batch]) => batch.length);
    return { catalogue, store, batchSizes };
  }

  it('writes in batches of at most batchSize; a duplicate file is skipped; a re-run adds nothing', async () => {
    for (let i = 1; i <= 7; i++) await song(`${i}.wav`, 300 + i * 40, { title: `Song ${i}`, artist: 'Alpha' });
    await copyFile(path.join(folder, '3.wav'), path.join(folder, '3 copy.wav'));
    const { catalogue, store, batchSizes } = catalogueOn();

    const summary = await importFolder(catalogue, store, folder, { batchSize: 3, batchMs: 60_000 });
    expect(summary).toMatchObject({ total: 8, added: 7, skipped: 1, failed: 0 });
    // Whichever of the two identical files is hashed first is added; the other is skipped.
    expect(summary.notAdded).toHaveLength(1);
    expect(summary.notAdded[0]).toMatchObject({ status: 'skipped', reason: ALREADY_IMPORTED });
    expect(['3.wav', '3 copy.wav']).toContain(path.basename(summary.notAdded[0]?.file ?? ''));
    expect(batchSizes().every((size) => size <= 3)).toBe(true);
    expect(batchSizes().reduce((a, b) => a + b, 0)).toBe(7);
    expect(batchSizes().length).toBeGreaterThanOrEqual(3);
    expect(await songCount(t.db)).toBe(7);
    expect(await artistCount(t.db)).toBe(1);
    await expectNoOrphanedBlobs(t);

    const blobs = await blobCounts(t.dataDir);
    const again = await importFolder(catalogue, store, folder, { batchSize: 3 });
    expect(again).toMatchObject({ total: 8, added: 0, skipped: 8, failed: 0 });
    expect(await songCount(t.db)).toBe(7);
    expect(await blobCounts(t.dataDir)).toEqual(blobs);
  });

  it('a batch with a bad row in the middle: the good files are added, the bad one fails with its reason', async () => {
    await refuseSongsNamed(t, 'Poison');
    for (let i = 1; i <= 3; i++) await song(`a${i}.wav`, 300 + i * 40, { title: `Good ${i}`, artist: 'Alpha' });
    const poison = await song('b.wav', 700, { title: 'Poison', artist: 'Only On The Bad File' });
    for (let i = 1; i <= 3; i++) await song(`c${i}.wav`, 800 + i * 40, { title: `Fine ${i}`, artist: 'Beta' });
    const { catalogue, store, batchSizes } = catalogueOn();

    const summary = await importFolder(catalogue, store, folder, { batchSize: 100, batchMs: 60_000 });
    expect(summary).toMatchObject({ total: 7, added: 6, skipped: 0, failed: 1 });
    expect(summary.notAdded).toHaveLength(1);
    expect(summary.notAdded[0]).toMatchObject({ file: poison, status: 'failed' });
    expect(summary.notAdded[0]?.reason).toContain('the database refused this row');
    // One batch of seven, refused whole; then each file in a batch of its own.
    expect(batchSizes()).toEqual([7, 1, 1, 1, 1, 1, 1, 1]);

    const names = await t.db.selectFrom('songs').select('name').orderBy('name').execute();
    expect(names.map((row) => row.name)).toEqual(['Fine 1', 'Fine 2', 'Fine 3', 'Good 1', 'Good 2', 'Good 3']);
    // The bad file's artist went with its row: nothing of it is left.
    const artists = await t.db.selectFrom('artists').select('name').orderBy('name').execute();
    expect(artists.map((row) => row.name)).toEqual(['Alpha', 'Beta']);
    await expectNoOrphanedBlobs(t);
  });

  it('a failure while a batch commits its blobs leaves no row, no artist and no blob of that batch', async () => {
    const store = failingCommits(testBlobStore(t.dataDir), 7);
    const catalogue = composeCatalogue({ db: t.db, dialect: t.dialect, blobs: store });
    const inputs: BatchSongInput[] = [];
    for (let i = 1; i <= 4; i++) {
      inputs.push({
        name: `Lost ${i}`,
        genre: 'Classical',
        artistName: `Lost Artist ${i}`,
        audio: await stageAudio(store, toneWav(300 + i * 40)),
        image: await stageImage(store, await picture(i)),
      });
    }
    expect((await blobCounts(t.dataDir)).tmp).toBe(4 * (1 + FILES_PER_IMAGE));

    // Commits 1–6 succeed (the first song's audio and image set, the second's audio), the 7th fails.
    await expect(catalogue.imports.addBatch(inputs)).rejects.toThrow('simulated');
    expect(await songCount(t.db)).toBe(0);
    expect(await artistCount(t.db)).toBe(0);
    expect(await blobCounts(t.dataDir)).toEqual({ audio: 0, image: 0, tmp: 0 });
    const listener = await makeUser(t);
    expect(await t.as(listener).json('/api/songs?q=lost', z.array(Song))).toEqual([]);
  });

  it('after such a failure the import writes the batch file by file, and every good file is added', async () => {
    for (let i = 1; i <= 5; i++) await song(`${i}.wav`, 300 + i * 40, { title: `Song ${i}`, artist: `Artist ${i}` });
    const { catalogue, store, batchSizes } = catalogueOn(failingCommits(testBlobStore(t.dataDir), 3, 1));

    const summary = await importFolder(catalogue, store, folder, { batchSize: 100, batchMs: 60_000 });
    expect(summary).toMatchObject({ total: 5, added: 5, failed: 0 });
    expect(batchSizes()).toEqual([5, 1, 1, 1, 1, 1]);
    expect(await songCount(t.db)).toBe(5);
    expect(await artistCount(t.db)).toBe(5);
    await expectNoOrphanedBlobs(t);
  });

  it('creates each artist once per batch, matched as the database matches names, and search finds them', async () => {
    const gamma = await composeCatalogue({ db: t.db, dialect: t.dialect, blobs: null }).artists.findOrCreate('Gamma');
    const artists = ['The Band', 'The Band', 'the band', 'THE BAND', 'gamma', 'Solo', 'Solo'];
    for (const [i, artist] of artists.entries()) await song(`${i}.wav`, 300 + i * 40, { title: `Song ${i}`, artist });
    await song('nobody.wav', 900, { title: 'Nobody' });
    const { catalogue, store, batchSizes } = catalogueOn();

    const summary = await importFolder(catalogue, store, folder, { batchSize: 100, batchMs: 60_000 });
    expect(summary).toMatchObject({ total: 8, added: 8, failed: 0 });
    expect(batchSizes()).toEqual([8]);

    const rows = await t.db
      .selectFrom('songs')
      .leftJoin('artists', 'artists.id', 'songs.artist_id')
      .select(['songs.name', 'songs.artist_id', 'artists.name as artist'])
      .execute();
    const artistOf = (name: string) => rows.find((row) => row.name === name);
    expect(await artistCount(t.db)).toBe(3);
    const band = new Set([0, 1, 2, 3].map((i) => artistOf(`Song ${i}`)?.artist_id));
    expect(band.size).toBe(1);
    expect(artistOf('Song 0')?.artist?.toLowerCase()).toBe('the band');
    expect(artistOf('Song 4')).toMatchObject({ artist_id: gamma, artist: 'Gamma' });
    expect(artistOf('Song 5')?.artist_id).toBe(artistOf('Song 6')?.artist_id);
    expect(artistOf('Nobody')?.artist_id).toBeNull();

    const listener = await makeUser(t);
    const found = async (q: string) =>
      (await t.as(listener).json(`/api/songs?q=${q}`, z.array(Song))).map((s) => s.name).sort();
    expect(await found('band')).toEqual(['Song 0', 'Song 1', 'Song 2', 'Song 3']);
    expect(await found('gamma')).toEqual(['Song 4']);
    expect(await found('solo')).toEqual(['Song 5', 'Song 6']);
  });
});
