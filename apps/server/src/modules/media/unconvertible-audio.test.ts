import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { AudioFileMessages, ErrorCodes } from '@tonearm/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeArtist, makeSong, makeUser, type TestUser } from '../../../test/factories.js';
import { FFMPEG, requireFfmpeg } from '../../../test/ffmpeg.js';
import { errorOf } from '../../../test/harness.js';
import { picture } from '../../../test/media.js';
import { apiKeyOf, queryString, subsonicApi, type SubsonicQuery } from '../../../test/subsonic.js';
import { honestWav, lyingWavs } from '../../media/lying-media.fixtures.js';
import { TRANSCODE_CACHE_DIR } from './media.module.js';

/**
 * A stored song ffmpeg cannot decode (a WAV whose `fmt ` chunk says 0 channels, stored before the upload's decode
 * check): asked for in another format, every entrance answers instead of dropping the connection. /media and Subsonic
 * `stream` with a `format` refuse with the contract's message; `stream` with only `maxBitRate` sends the original,
 * which the app plays too. Nothing of the failed conversion is cached, and the stored file is untouched.
 */
const lying = lyingWavs().zeroChannels;
const lyingKey = `${createHash('sha256').update(lying).digest('hex')}.wav`;

beforeAll(async () => {
  await requireFfmpeg();
});

describeEachDialect('audio ffmpeg cannot convert (%s)', { env: { FFMPEG_PATH: FFMPEG } }, (t) => {
  let user: TestUser;
  let apiKey: string;
  let songId: number;

  const stream = (query: SubsonicQuery, headers: Record<string, string> = {}) =>
    t.as(null).get(`/rest/stream?${queryString({ apiKey, id: songId, ...query })}`, { headers });

  /** The transcode cache holds nothing of the song, not even a temp file. */
  async function expectNothingCached(): Promise<void> {
    const files = await readdir(path.join(t.dataDir, TRANSCODE_CACHE_DIR)).catch(() => []);
    expect(files.filter((file) => file.startsWith(lyingKey) || file.endsWith('.tmp'))).toEqual([]);
  }

  beforeAll(async () => {
    const admin = await makeAdmin(t);
    user = await makeUser(t);
    apiKey = await apiKeyOf(t, user);
    const artistId = await makeArtist(t, admin, 'Broken Artist', await picture(501));
    songId = await makeSong(t, admin, { name: 'Broken', artistId, audio: honestWav(1, 501) });
    // The upload refuses such a file now: put it in place the way an older server stored it.
    await (await t.blobs?.stage('audio', lying))?.commit(lyingKey);
    await t.db.updateTable('songs').set({ audio_key: lyingKey }).where('id', '=', songId).execute();
  });

  it('/media/audio/<key>?format= answers 415 with the contract’s message, live or for a later range', async () => {
    for (const headers of [{}, { range: 'bytes=100-' }]) {
      const response = await t.as(user).get(`/media/audio/${lyingKey}?format=opus`, { headers });
      expect(response.statusCode).toBe(415);
      expect(errorOf(response.body)).toEqual({
        code: ErrorCodes.unsupportedMediaType,
        message: AudioFileMessages.notConvertible,
      });
    }
    await expectNothingCached();
  });

  it('Subsonic stream with a format answers error 0 with the same message, in JSON and XML', async () => {
    const api = subsonicApi(t, { apiKey });
    expect(await api.error('stream', { id: songId, format: 'opus' }, 0)).toBe(AudioFileMessages.notConvertible);
    expect(await api.error('stream', { id: songId, format: 'mp3', maxBitRate: 96 }, 0)).toBe(
      AudioFileMessages.notConvertible,
    );
    const ranged = await stream({ format: 'mp3', f: 'json' }, { range: 'bytes=100-' });
    expect(ranged.statusCode).toBe(200);
    expect(ranged.json()).toMatchObject({
      'subsonic-response': { status: 'failed', error: { code: 0, message: AudioFileMessages.notConvertible } },
    });
    await expectNothingCached();
  });

  it('Subsonic stream with maxBitRate alone sends the original instead, whole or a range of it', async () => {
    const whole = await stream({ maxBitRate: 64 });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('audio/wav');
    expect(whole.rawPayload.equals(lying)).toBe(true);
    const part = await stream({ maxBitRate: 64 }, { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(lying.subarray(100, 200))).toBe(true);
    await expectNothingCached();
  });

  it('keeps the stored file as it was', async () => {
    const original = await t.as(user).get(`/media/audio/${lyingKey}`);
    expect(original.statusCode).toBe(200);
    expect(original.rawPayload.equals(lying)).toBe(true);
  });
});
