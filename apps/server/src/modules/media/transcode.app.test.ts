import { MediaCapabilities } from '@tonearm/contract';
import { pino } from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeUser } from '../../../test/factories.js';
import { FFMPEG, requireFfmpeg } from '../../../test/ffmpeg.js';
import { toneWav } from '../../../test/media.js';

/**
 * Transcoding as the app sets it up from the configuration: ffmpeg probed once at start-up (FFMPEG_PATH), the
 * capabilities endpoint, and `?format=` falling back to the original file when there is no ffmpeg.
 */
const KEY = `${'c'.repeat(64)}.wav`;
const wav = toneWav(523, 1);

beforeAll(async () => {
  await requireFfmpeg();
});

describe('transcoding in the app', () => {
  // What the app of the running suite logged (each dialect's app gets a fresh list).
  let logged: { msg?: string }[] = [];
  const prepare = () => {
    logged = [];
    const write = (line: string) => logged.push(JSON.parse(line) as { msg?: string });
    return Promise.resolve({ logger: pino({ level: 'info' }, { write }) });
  };

  describeEachDialect('without ffmpeg (%s)', { env: { FFMPEG_PATH: '/nonexistent/bin/ffmpeg' }, prepare }, (t) => {
    it('says once at start-up that transcoding is off', () => {
      const off = logged.filter((line) => line.msg?.startsWith('transcoding is off') === true);
      expect(off).toHaveLength(1);
    });

    it('tells the client it cannot transcode', async () => {
      const user = await makeUser(t);
      const capabilities = await t.as(user).json('/api/media/capabilities', MediaCapabilities);
      expect(capabilities).toEqual({
        transcoding: false,
        formats: ['opus', 'mp3'],
        bitrateMin: 64,
        bitrateMax: 320,
        bitrateDefault: 128,
      });
      expect((await t.as(null).get('/api/media/capabilities')).statusCode).toBe(401);
    });

    it('serves the original for ?format=, and still refuses a bad format', async () => {
      await (await t.blobs?.stage('audio', wav))?.commit(KEY);
      const user = await makeUser(t);
      const response = await t.as(user).get(`/media/audio/${KEY}?format=opus&bitrate=64`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('audio/wav');
      expect(response.rawPayload.equals(wav)).toBe(true);
      expect((await t.as(user).get(`/media/audio/${KEY}?format=flac`)).statusCode).toBe(400);
    });
  });

  describeEachDialect('with ffmpeg (%s)', { env: { FFMPEG_PATH: FFMPEG } }, (t) => {
    it('tells the client it transcodes, and does', async () => {
      const user = await makeUser(t);
      expect((await t.as(user).json('/api/media/capabilities', MediaCapabilities)).transcoding).toBe(true);
      await (await t.blobs?.stage('audio', wav))?.commit(KEY);
      const response = await t.as(user).get(`/media/audio/${KEY}?format=opus`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('audio/ogg');
      expect(response.rawPayload.subarray(0, 4).toString('latin1')).toBe('OggS');
    });
  });
});
