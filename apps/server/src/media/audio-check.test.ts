import { mkdir, mkdtemp, readdir, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AudioFileMessages } from '@tonearm/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/dialects.js';
import { FFMPEG, ffmpegTone, requireFfmpeg } from '../../test/ffmpeg.js';
import { blobCounts, collect, songCount, tempFiles, testBlobStore } from '../../test/stored.js';
import { importFolder } from '../cli/import-folder.js';
import { LocalBlobStore } from '../storage/local-blob-store.js';
import { composeCatalogue } from '../catalogue-composition.js';
import { AudioEndCheck, TRUNCATED } from './audio-check.js';
import { honestWav, lyingWavs, truncatedWav } from './lying-media.fixtures.js';
import { stageAudio } from './staging.js';

/**
 * The decode and end-of-audio check the upload and the import share: WAVs whose header lies (0 channels, a `fmt `
 * chunk of 0xFFFFFFF0 bytes, a 2 GB `LIST` chunk) pass the magic bytes but no decoder, and must be refused with one
 * clear reason; a file cut short keeps the import's reason; nothing of a refused file stays behind.
 */
let root: string;
const LYING = Object.entries(lyingWavs());

async function fileOf(name: string, bytes: Buffer): Promise<string> {
  const file = path.join(root, name);
  await writeFile(file, bytes);
  return file;
}

beforeAll(async () => {
  await requireFfmpeg();
  root = await mkdtemp(path.join(tmpdir(), 'tonearm-audio-check-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('AudioEndCheck', () => {
  const check = new AudioEndCheck(FFMPEG);

  it.each(LYING)('refuses a WAV whose header lies (%s) as unreadable', async (name, bytes) => {
    expect(await check.reasonAgainst(await fileOf(`${name}.wav`, bytes), 'wav')).toBe(AudioFileMessages.unreadable);
  });

  it('tells a file cut short from one it cannot decode, and passes honest files', async () => {
    expect(await check.reasonAgainst(await fileOf('cut.wav', truncatedWav()), 'wav')).toBe(TRUNCATED);
    expect(await check.reasonAgainst(await fileOf('honest.wav', honestWav(0.5)), 'wav')).toBeNull();
    const mp3 = await fileOf('tone.mp3', await ffmpegTone(root, 3, 'mp3'));
    expect(await check.reasonAgainst(mp3, 'mp3')).toBeNull();
    await truncate(mp3, 4000);
    expect(await check.reasonAgainst(mp3, 'mp3')).toBe(TRUNCATED);
    expect(await check.reasonAgainst(await fileOf('noise.mp3', Buffer.alloc(4000, 0x55)), 'mp3')).toBe(
      AudioFileMessages.unreadable,
    );
  });

  it('without ffmpeg still refuses a WAV cut short (from its header), and decodes nothing', async () => {
    const headersOnly = new AudioEndCheck(null);
    expect(await headersOnly.reasonAgainst(await fileOf('cut.wav', truncatedWav()), 'wav')).toBe(TRUNCATED);
    for (const [name, bytes] of LYING) {
      expect(await headersOnly.reasonAgainst(await fileOf(`${name}.wav`, bytes), 'wav')).toBeNull();
    }
  });

  it('fails (the server, not the file) when ffmpeg cannot be started', async () => {
    const broken = new AudioEndCheck(path.join(root, 'no-such-ffmpeg'));
    const lying = await fileOf('lying.wav', lyingWavs().zeroChannels);
    await expect(broken.reasonAgainst(lying, 'wav')).rejects.toThrow(/ENOENT/);
  });

  it('passes a WAV of plain samples whose header holds together without running ffmpeg', async () => {
    const broken = new AudioEndCheck(path.join(root, 'no-such-ffmpeg'));
    expect(await broken.reasonAgainst(await fileOf('plain.wav', honestWav(0.5)), 'wav')).toBeNull();
  });
});

describe('stageAudio with the check', () => {
  let store: LocalBlobStore;
  const check = new AudioEndCheck(FFMPEG);

  beforeAll(() => {
    store = new LocalBlobStore(path.join(root, 'store'));
  });

  const refusal = (bytes: Buffer) =>
    stageAudio(store, bytes, 'songFile', { check }).then(
      () => null,
      (error: unknown) => error,
    );

  it.each(LYING)('refuses a lying WAV (%s) with 415, keeping nothing', async (_name, bytes) => {
    expect(await refusal(bytes)).toMatchObject({
      status: 415,
      message: AudioFileMessages.unreadable,
      field: 'songFile',
    });
    expect(await tempFiles(store.rootDir)).toEqual([]);
    expect(await collect(store.list('audio'))).toEqual([]);
  });

  it('refuses a WAV cut short with 415 and the import’s reason, and stages an honest one', async () => {
    expect(await refusal(truncatedWav())).toMatchObject({ status: 415, message: TRUNCATED, field: 'songFile' });
    expect(await tempFiles(store.rootDir)).toEqual([]);
    const staged = await stageAudio(store, honestWav(0.5, 3), 'songFile', { check });
    expect(staged.ext).toBe('wav');
    await staged.staged.discard();
  });
});

describeEachDialect('the import with the check (%s)', (t) => {
  it('refuses the lying and the truncated WAVs with the same reasons, and keeps only the honest one', async () => {
    const folder = path.join(root, `music-${t.dialect}`);
    await mkdir(folder, { recursive: true });
    for (const [name, bytes] of LYING) await writeFile(path.join(folder, `${name}.wav`), bytes);
    await writeFile(path.join(folder, 'truncated.wav'), truncatedWav());
    await writeFile(path.join(folder, 'honest.wav'), honestWav(0.5, 11));
    const store = testBlobStore(t.dataDir);
    const summary = await importFolder(
      composeCatalogue({ db: t.db, dialect: t.dialect, blobs: store }),
      store,
      folder,
      {
        endCheck: new AudioEndCheck(FFMPEG),
        defaultGenre: 'Rock',
      },
    );
    const lines = summary.notAdded.map((outcome) => [path.basename(outcome.file), outcome.status, outcome.reason]);
    expect(lines).toEqual([
      ['hugeFmtChunk.wav', 'failed', AudioFileMessages.unreadable],
      ['hugeListChunk.wav', 'failed', AudioFileMessages.unreadable],
      ['truncated.wav', 'failed', TRUNCATED],
      ['zeroChannels.wav', 'failed', AudioFileMessages.unreadable],
    ]);
    expect(summary).toMatchObject({ added: 1, failed: 4 });
    expect(await songCount(t.db)).toBe(1);
    expect(await blobCounts(t.dataDir)).toMatchObject({ audio: 1, tmp: 0 });
    expect(await readdir(folder)).toHaveLength(5);
  });
});
