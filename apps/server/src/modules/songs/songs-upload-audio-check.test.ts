import { AudioFileMessages, Song } from '@tonearm/contract';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeArtist, makeSong, type TestUser } from '../../../test/factories.js';
import { FFMPEG } from '../../../test/ffmpeg.js';
import { errorOf } from '../../../test/harness.js';
import { picture, type FormValue } from '../../../test/media.js';
import { blobCounts, songCount, type BlobCounts } from '../../../test/stored.js';
import { TRUNCATED } from '../../media/audio-check.js';
import { honestWav, lyingWavs, truncatedWav } from '../../media/lying-media.fixtures.js';

/**
 * The song upload applies the import's decode and end-of-audio check (media/audio-check.ts): a WAV whose header lies
 * and a WAV cut short are refused with 415 and the import's own reason, leaving no row, blob or temp file.
 */
interface Snapshot {
  rows: number;
  blobs: BlobCounts;
}

const wavPart = (data: Buffer): FormValue => ({ data, filename: 'song.wav', type: 'audio/wav' });

describeEachDialect('song upload: the decode and end-of-audio check (%s)', { env: { FFMPEG_PATH: FFMPEG } }, (t) => {
  let admin: TestUser;
  let artistId: number;
  let before: Snapshot;
  let seed = 400;

  const snapshot = async (): Promise<Snapshot> => ({ rows: await songCount(t.db), blobs: await blobCounts(t.dataDir) });
  const form = async (audio: Buffer) => ({
    name: 'Checked',
    genre: 'Pop',
    artistId: String(artistId),
    songFile: wavPart(audio),
    imageFile: { data: await picture((seed += 1)), filename: 'cover.png', type: 'image/png' },
  });

  async function expectRefused(response: LightMyRequestResponse, message: string): Promise<void> {
    expect(response.statusCode, response.body).toBe(415);
    expect(errorOf(response.body)).toMatchObject({ code: 'unsupported-media-type', message, field: 'songFile' });
    expect(await snapshot()).toEqual(before);
    expect(before.blobs.tmp).toBe(0);
  }

  beforeAll(async () => {
    admin = await makeAdmin(t);
    artistId = await makeArtist(t, admin, 'Checked Artist', await picture(399));
  });

  beforeEach(async () => {
    before = await snapshot();
  });

  it.each(Object.entries(lyingWavs()))('POST refuses a WAV whose header lies (%s): 415 unreadable', async (_n, wav) => {
    await expectRefused(await t.as(admin).form('POST', '/api/songs', await form(wav)), AudioFileMessages.unreadable);
  });

  // The import's refusal of the same file, with the same reason, is media/audio-check.test.ts's.
  it('POST and PUT refuse a WAV cut short with 415 and the reason the import gives', async () => {
    const cut = truncatedWav();
    await expectRefused(await t.as(admin).form('POST', '/api/songs', await form(cut)), TRUNCATED);

    const songId = await makeSong(t, admin, { name: 'Kept', artistId, audio: honestWav(0.5, 41) });
    const kept = await t.as(admin).json(`/api/songs/${songId}`, Song);
    before = await snapshot();
    await expectRefused(await t.as(admin).form('PUT', `/api/songs/${songId}`, await form(cut)), TRUNCATED);
    expect((await t.as(admin).json(`/api/songs/${songId}`, Song)).link).toBe(kept.link);
    expect(await snapshot()).toEqual(before);
  });
});

describeEachDialect('song upload without ffmpeg (%s)', { env: { FFMPEG_PATH: '/nonexistent/bin/ffmpeg' } }, (t) => {
  it('still refuses a WAV cut short, as the import without ffmpeg does', async () => {
    const admin = await makeAdmin(t);
    const artistId = await makeArtist(t, admin, 'Plain Artist', await picture(398));
    const before = await blobCounts(t.dataDir);
    const response = await t.as(admin).form('POST', '/api/songs', {
      name: 'Cut',
      genre: 'Pop',
      artistId: String(artistId),
      songFile: wavPart(truncatedWav()),
      imageFile: { data: await picture(397), filename: 'cover.png', type: 'image/png' },
    });
    expect(response.statusCode, response.body).toBe(415);
    expect(errorOf(response.body).message).toBe(TRUNCATED);
    expect(await blobCounts(t.dataDir)).toEqual(before);
    expect(await songCount(t.db)).toBe(0);
  });
});
