import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { SubsonicMessages, TranscodeMessages } from '@tonearm/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect, type AppSuite } from '../../../../test/dialects.js';
import {
  makeAdmin,
  makeArtist,
  makePlaylist,
  makeSong,
  makeUser,
  placeOnAlbum,
  type TestUser,
} from '../../../../test/factories.js';
import {
  PCM_RATE,
  decodePcm,
  ffmpegTone,
  ffmpegTones,
  realTimeFfmpeg,
  requireFfmpeg,
  toneFrequency,
} from '../../../../test/ffmpeg.js';
import { picture, toneWav } from '../../../../test/media.js';
import { queryString, apiKeyOf, subsonicApi, type SubsonicApi, type SubsonicQuery } from '../../../../test/subsonic.js';
import { IMAGE_CACHE_CONTROL } from '../../../media/blob-response.js';
import { BUSY_RETRY_AFTER_SECONDS } from '../../media/transcode-response.js';

/**
 * The Subsonic media methods (issue 13): `stream` through the /media handler and its transcoder, `download` through
 * the downloads policy, `getCoverArt` from the stored thumbnails. Audio is real (WAV made here, transcodes by ffmpeg).
 */

beforeAll(async () => {
  await requireFfmpeg();
});

/** A binary answer of `method` with request headers (Range, If-None-Match). */
const restBytes = (t: AppSuite, apiKey: string, method: string, query: SubsonicQuery, headers = {}) =>
  t.as(null).get(`/rest/${method}?${queryString({ apiKey, ...query })}`, { headers });

const isMp3 = (bytes: Buffer) =>
  bytes.subarray(0, 3).toString('latin1') === 'ID3' || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0);

function expectWav(response: LightMyRequestResponse, bytes: Buffer) {
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('audio/wav');
  expect(response.rawPayload.equals(bytes)).toBe(true);
}

describeEachDialect('Subsonic media methods (%s)', (t) => {
  let admin: TestUser;
  let plain: TestUser;
  let premium: TestUser;
  let adminKey: string;
  let plainKey: string;
  let premiumKey: string;
  let api: SubsonicApi;
  let artistId: number;
  let songId: number;
  let audioKey: string;
  const wav = toneWav(331, 1);

  beforeAll(async () => {
    admin = await makeAdmin(t);
    plain = await makeUser(t);
    premium = await makeUser(t, { premium: true });
    adminKey = await apiKeyOf(t, admin);
    plainKey = await apiKeyOf(t, plain);
    premiumKey = await apiKeyOf(t, premium);
    api = subsonicApi(t, { apiKey: plainKey });
    artistId = await makeArtist(t, admin, 'Media Artist', await picture(71));
    songId = await makeSong(t, admin, { name: 'Media Song', artistId, audio: wav, cover: await picture(72) });
    const row = await t.db.selectFrom('songs').select('audio_key').where('id', '=', songId).executeTakeFirstOrThrow();
    audioKey = row.audio_key;
  });

  describe('stream', () => {
    it('sends the original to any signed-in user, as format=raw does', async () => {
      expectWav(await restBytes(t, plainKey, 'stream', { id: songId }), wav);
      expectWav(await restBytes(t, plainKey, 'stream', { id: songId, format: 'raw', maxBitRate: 64 }), wav);
      expectWav(await restBytes(t, plainKey, 'stream.view', { id: songId, estimateContentLength: true }), wav);
    });

    it('answers Range with the right bytes (206) or 416, and conditional requests with 304', async () => {
      const part = await restBytes(t, plainKey, 'stream', { id: songId }, { range: 'bytes=100-1099' });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 100-1099/${wav.length}`);
      expect(part.rawPayload.equals(wav.subarray(100, 1100))).toBe(true);
      const tail = await restBytes(t, plainKey, 'stream', { id: songId }, { range: 'bytes=-10' });
      expect(tail.statusCode).toBe(206);
      expect(tail.rawPayload.equals(wav.subarray(wav.length - 10))).toBe(true);
      const outside = await restBytes(t, plainKey, 'stream', { id: songId }, { range: `bytes=${wav.length}-` });
      expect(outside.statusCode).toBe(416);
      expect(outside.headers['content-range']).toBe(`bytes */${wav.length}`);
      const first = await restBytes(t, plainKey, 'stream', { id: songId });
      expect(first.headers.etag).toBe(`"${audioKey}"`);
      const again = await restBytes(t, plainKey, 'stream', { id: songId }, { 'if-none-match': first.headers.etag });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
    });

    it('transcodes for format=mp3|opus at maxBitRate, and answers a Range of the transcode exactly', async () => {
      const opus = await restBytes(t, plainKey, 'stream', { id: songId, format: 'opus' });
      expect(opus.statusCode).toBe(200);
      expect(opus.headers['content-type']).toBe('audio/ogg');
      expect(opus.rawPayload.subarray(0, 4).toString('latin1')).toBe('OggS');

      const mp3 = await restBytes(t, plainKey, 'stream', { id: songId, format: 'mp3', maxBitRate: 96 });
      expect(mp3.statusCode).toBe(200);
      expect(mp3.headers['content-type']).toBe('audio/mpeg');
      expect(isMp3(mp3.rawPayload)).toBe(true);
      expect(mp3.rawPayload.equals(wav)).toBe(false);
      const part = await restBytes(
        t,
        plainKey,
        'stream',
        { id: songId, format: 'mp3', maxBitRate: 96 },
        {
          range: 'bytes=100-199',
        },
      );
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 100-199/${mp3.rawPayload.length}`);
      expect(part.rawPayload.equals(mp3.rawPayload.subarray(100, 200))).toBe(true);
      const outside = await restBytes(
        t,
        plainKey,
        'stream',
        { id: songId, format: 'mp3', maxBitRate: 96 },
        {
          range: `bytes=${mp3.rawPayload.length}-`,
        },
      );
      expect(outside.statusCode).toBe(416);
    });

    it('transcodes to mp3 for maxBitRate alone only when the original is above it (or its rate is unknown)', async () => {
      const unknown = await restBytes(t, plainKey, 'stream', { id: songId, maxBitRate: 64 });
      expect(unknown.headers['content-type']).toBe('audio/mpeg');
      expect(isMp3(unknown.rawPayload)).toBe(true);
      await t.db.updateTable('songs').set({ bitrate_kbps: 128 }).where('id', '=', songId).execute();
      try {
        expectWav(await restBytes(t, plainKey, 'stream', { id: songId, maxBitRate: 128 }), wav);
        expectWav(await restBytes(t, plainKey, 'stream', { id: songId, maxBitRate: 0 }), wav);
        const lower = await restBytes(t, plainKey, 'stream', { id: songId, maxBitRate: 96 });
        expect(lower.headers['content-type']).toBe('audio/mpeg');
        expect(isMp3(lower.rawPayload)).toBe(true);
      } finally {
        await t.db.updateTable('songs').set({ bitrate_kbps: null }).where('id', '=', songId).execute();
      }
    });

    it('sends the original when it already is the asked format within maxBitRate', async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'subsonic-mp3-'));
      const mp3 = await ffmpegTone(dir, 1, 'mp3', 587).finally(() => rm(dir, { recursive: true, force: true }));
      const mp3Id = await makeSong(t, admin, { artistId, audio: mp3 });
      await t.db.updateTable('songs').set({ bitrate_kbps: 128 }).where('id', '=', mp3Id).execute();
      for (const maxBitRate of [0, 128, 320]) {
        const same = await restBytes(t, plainKey, 'stream', { id: mp3Id, format: 'mp3', maxBitRate });
        expect(same.headers['content-type']).toBe('audio/mpeg');
        expect(same.rawPayload.equals(mp3), `maxBitRate ${maxBitRate}`).toBe(true);
      }
      const lower = await restBytes(t, plainKey, 'stream', { id: mp3Id, format: 'mp3', maxBitRate: 64 });
      expect(isMp3(lower.rawPayload)).toBe(true);
      expect(lower.rawPayload.equals(mp3)).toBe(false);
      const opus = await restBytes(t, plainKey, 'stream', { id: mp3Id, format: 'opus' });
      expect(opus.rawPayload.subarray(0, 4).toString('latin1')).toBe('OggS');
    });

    describe('timeOffset (the transcodeOffset extension)', () => {
      /** 2 s at 440 Hz, then 2 s at 880 Hz: where a stream starts shows in its first tone. */
      let twoTones: Buffer;
      let twoTonesId: number;
      /** How long the stream's audio is, and the tone it starts with (after the encoder's first tenth of a second). */
      const heard = async (response: LightMyRequestResponse) => {
        expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
        const pcm = await decodePcm(response.rawPayload);
        return { seconds: pcm.length / PCM_RATE, hz: toneFrequency(pcm, 0.1, 0.6) };
      };

      beforeAll(async () => {
        const dir = await mkdtemp(path.join(tmpdir(), 'subsonic-offset-'));
        twoTones = await ffmpegTones(
          dir,
          [
            [440, 2],
            [880, 2],
          ],
          'wav',
        ).finally(() => rm(dir, { recursive: true, force: true }));
        twoTonesId = await makeSong(t, admin, { name: 'Two Tones', artistId, audio: twoTones });
      });

      it('is listed by getOpenSubsonicExtensions, as ffmpeg converts here', async () => {
        const { openSubsonicExtensions } = await api.json('getOpenSubsonicExtensions');
        expect(openSubsonicExtensions).toContainEqual({ name: 'transcodeOffset', versions: [1] });
      });

      it('starts the conversion asked for at the offset', async () => {
        const whole = await heard(await restBytes(t, plainKey, 'stream', { id: twoTonesId, format: 'mp3' }));
        expect(whole.seconds).toBeGreaterThan(3.8);
        expect(whole.hz).toBeCloseTo(440, -1);
        for (const format of ['mp3', 'opus']) {
          const late = await restBytes(t, plainKey, 'stream', { id: twoTonesId, format, timeOffset: 2 });
          expect(late.headers['content-type']).toBe(format === 'mp3' ? 'audio/mpeg' : 'audio/ogg');
          const from2 = await heard(late);
          expect(from2.seconds, format).toBeGreaterThan(1.8);
          expect(from2.seconds, format).toBeLessThan(2.3);
          expect(from2.hz, format).toBeCloseTo(880, -1);
        }
        const from3 = await heard(
          await restBytes(t, plainKey, 'stream', { id: twoTonesId, format: 'mp3', timeOffset: 3.5 }),
        );
        expect(from3.seconds).toBeGreaterThan(0.3);
        expect(from3.seconds).toBeLessThan(0.8);
      });

      it('converts a song that would go out as it is, since its bytes cannot start at a time; raw is the original', async () => {
        const late = await restBytes(t, plainKey, 'stream', { id: twoTonesId, timeOffset: 2 });
        expect(late.headers['content-type']).toBe('audio/mpeg');
        expect((await heard(late)).hz).toBeCloseTo(880, -1);
        expectWav(await restBytes(t, plainKey, 'stream', { id: twoTonesId, format: 'raw', timeOffset: 2 }), twoTones);
        expectWav(await restBytes(t, plainKey, 'stream', { id: twoTonesId, timeOffset: 0 }), twoTones);
      });

      it('answers a Range of the converted stream exactly, as of any conversion', async () => {
        const query = { id: twoTonesId, format: 'mp3', timeOffset: 2 };
        const whole = await restBytes(t, plainKey, 'stream', query);
        const part = await restBytes(t, plainKey, 'stream', query, { range: 'bytes=100-199' });
        expect(part.statusCode).toBe(206);
        expect(part.headers['content-range']).toBe(`bytes 100-199/${whole.rawPayload.length}`);
        expect(part.rawPayload.equals(whole.rawPayload.subarray(100, 200))).toBe(true);
      });

      it('refuses an offset that is no number of seconds (0)', async () => {
        for (const timeOffset of ['soon', '-1', '1e3', '2.5.1']) {
          expect(await api.error('stream', { id: twoTonesId, format: 'mp3', timeOffset }, 0)).toBe(
            SubsonicMessages.badTimeOffset,
          );
        }
      });
    });

    it('answers a missing song, a bad id, an unknown format and a bad bit rate in the envelope', async () => {
      await api.error('stream', { id: 999_999 }, 70);
      await api.error('stream', { id: 'ar-1' }, 70);
      await api.error('stream', {}, 10);
      expect(await api.error('stream', { id: songId, format: 'flac' }, 0)).toBe(
        'Unknown format: flac (use raw, mp3 or opus)',
      );
      await api.error('stream', { id: songId, maxBitRate: 'fast' }, 0);
    });
  });

  describe('download', () => {
    it('refuses a user without premium (50), in the envelope', async () => {
      const refused = subsonicApi(t, { apiKey: plainKey });
      expect(await refused.error('download', { id: songId }, 50)).toMatch(/premium/i);
      await refused.error('download', {}, 10);
    });

    it('sends the original as an attachment to administrators and premium users', async () => {
      for (const key of [adminKey, premiumKey]) {
        const response = await restBytes(t, key, 'download', { id: songId });
        expectWav(response, wav);
        expect(response.headers['content-disposition']).toMatch(
          /^attachment; filename="Media Artist - Media Song\.wav"/,
        );
        const part = await restBytes(t, key, 'download', { id: songId }, { range: 'bytes=0-9' });
        expect(part.statusCode).toBe(206);
        expect(part.rawPayload.equals(wav.subarray(0, 10))).toBe(true);
      }
      await subsonicApi(t, { apiKey: adminKey }).error('download', { id: 999_999 }, 70);
    });
  });

  describe('getCoverArt', () => {
    /** The thumbnail /media/images serves for this original at width w. */
    const thumbnail = async (imageKey: string, w: number) => {
      const response = await t.as(null).get(`/media/images/${imageKey}?w=${w}`);
      expect(response.statusCode).toBe(200);
      return response.rawPayload;
    };
    const imageOf = async (table: 'songs' | 'artists', id: number) =>
      (await t.db.selectFrom(table).select('image_key').where('id', '=', id).executeTakeFirstOrThrow()).image_key ?? '';

    it('sends the nearest stored thumbnail at least `size` wide, the largest without a size', async () => {
      const songImage = await imageOf('songs', songId);
      for (const [size, width] of [
        [undefined, 640],
        [1, 64],
        [64, 64],
        [65, 300],
        [300, 300],
        [500, 640],
        [5000, 640],
      ] as const) {
        const response = await restBytes(t, plainKey, 'getCoverArt', { id: songId, ...(size ? { size } : {}) });
        expect(response.statusCode, `size ${size}`).toBe(200);
        expect(response.headers['content-type']).toBe('image/webp');
        expect(response.rawPayload.equals(await thumbnail(songImage, width)), `size ${size}`).toBe(true);
      }
    });

    it('sends the cache headers /media/images sends, and 304 to a revalidation', async () => {
      const response = await restBytes(t, plainKey, 'getCoverArt', { id: songId, size: 64 });
      expect(response.headers['cache-control']).toBe(IMAGE_CACHE_CONTROL);
      const media = await t.as(null).get(`/media/images/${await imageOf('songs', songId)}?w=64`);
      expect(response.headers.etag).toBe(media.headers.etag);
      const again = await restBytes(
        t,
        plainKey,
        'getCoverArt',
        { id: songId, size: 64 },
        {
          'if-none-match': response.headers.etag,
        },
      );
      expect(again.statusCode).toBe(304);
    });

    it("covers artists, albums (their own cover, else their first track's) and playlists", async () => {
      const artistImage = await imageOf('artists', artistId);
      const songImage = await imageOf('songs', songId);
      const artist = await restBytes(t, plainKey, 'getCoverArt', { id: `ar-${artistId}`, size: 300 });
      expect(artist.rawPayload.equals(await thumbnail(artistImage, 300))).toBe(true);

      const album = await t.db
        .insertInto('albums')
        .values({
          name: 'Media Album',
          artist_id: artistId,
          year: null,
          image_key: null,
          created_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // Uploaded without an album, the song is on its artist's placeholder (issue 25): no cover of its own, and none
      // borrowed from a track.
      const placeholder = await t.db
        .selectFrom('album_tracks')
        .innerJoin('albums', 'albums.id', 'album_tracks.album_id')
        .select(['albums.id', 'albums.is_placeholder'])
        .where('album_tracks.song_id', '=', songId)
        .executeTakeFirstOrThrow();
      expect(placeholder.is_placeholder).toBe(1);
      await subsonicApi(t, { apiKey: plainKey }).error('getCoverArt', { id: `al-${placeholder.id}` }, 70);
      await placeOnAlbum(t, songId, album.id, 1, 1);
      const fallback = await restBytes(t, plainKey, 'getCoverArt', { id: `al-${album.id}`, size: 64 });
      expect(fallback.rawPayload.equals(await thumbnail(songImage, 64))).toBe(true);
      await t.db.updateTable('albums').set({ image_key: artistImage }).where('id', '=', album.id).execute();
      const own = await restBytes(t, plainKey, 'getCoverArt', { id: `al-${album.id}`, size: 64 });
      expect(own.rawPayload.equals(await thumbnail(artistImage, 64))).toBe(true);

      const playlist = await makePlaylist(t, plain, { name: 'Covered', isPublic: false });
      await subsonicApi(t, { apiKey: plainKey }).error('getCoverArt', { id: `pl-${playlist.id}` }, 70);
      await t.db.updateTable('playlists').set({ image_key: songImage }).where('id', '=', playlist.id).execute();
      const cover = await restBytes(t, plainKey, 'getCoverArt', { id: `pl-${playlist.id}`, size: 64 });
      expect(cover.rawPayload.equals(await thumbnail(songImage, 64))).toBe(true);
      // A private playlist of someone else does not exist for the caller.
      await subsonicApi(t, { apiKey: premiumKey }).error('getCoverArt', { id: `pl-${playlist.id}` }, 70);
    });

    it('answers 70 for what does not exist or has no image, 10 without an id', async () => {
      const bare = await makeArtist(t, admin, 'No Photo Artist');
      await api.error('getCoverArt', { id: `ar-${bare}` }, 70);
      await api.error('getCoverArt', { id: 'ar-999999' }, 70);
      await api.error('getCoverArt', { id: 'al-999999' }, 70);
      await api.error('getCoverArt', { id: 999_999 }, 70);
      await api.error('getCoverArt', { id: 'nonsense' }, 70);
      await api.error('getCoverArt', {}, 10);
      await api.error('getCoverArt', { id: songId, size: 'big' }, 0);
    });
  });
});

// ffmpeg reading at real-time speed, one transcode at a time: a transcode stays in progress while the test looks.
let slowDir = '';
const slowFfmpeg = async () => {
  slowDir = await mkdtemp(path.join(tmpdir(), 'subsonic-slow-ffmpeg-'));
  return { env: { FFMPEG_PATH: await realTimeFfmpeg(slowDir), TRANSCODE_CONCURRENCY: '1' } };
};

describeEachDialect('Subsonic stream with every transcoding slot taken (%s)', { prepare: slowFfmpeg }, (t) => {
  afterAll(async () => {
    await rm(slowDir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After around the envelope (error 0), in JSON and XML', async () => {
    const admin = await makeAdmin(t);
    const key = await apiKeyOf(t, admin);
    const artistId = await makeArtist(t, admin, 'Busy Artist');
    const [first, second] = [
      await makeSong(t, admin, { artistId, audio: toneWav(300, 3) }),
      await makeSong(t, admin, { artistId, audio: toneWav(400, 3) }),
    ];
    const running = restBytes(t, key, 'stream', { id: first, format: 'opus' });
    // The first conversion has begun once its temporary file is in the cache.
    const cache = path.join(t.dataDir, 'transcode-cache');
    await expect
      .poll(async () => (await readdir(cache).catch(() => [])).some((name) => name.endsWith('.tmp')), {
        timeout: 10_000,
      })
      .toBe(true);
    const formats: SubsonicQuery[] = [{ f: 'json' }, {}];
    for (const format of formats) {
      const busy = await restBytes(t, key, 'stream', { id: second, format: 'mp3', ...format });
      expect(busy.statusCode).toBe(503);
      expect(busy.headers['retry-after']).toBe(String(BUSY_RETRY_AFTER_SECONDS));
      expect(busy.body).toContain(TranscodeMessages.busy);
    }
    expect((await running).statusCode).toBe(200);
  });
});

describeEachDialect('Subsonic stream without ffmpeg (%s)', { env: { FFMPEG_PATH: '/nonexistent/bin/ffmpeg' } }, (t) => {
  it('sends the original for a transcoding request', async () => {
    const admin = await makeAdmin(t);
    const key = await apiKeyOf(t, admin);
    const wav = toneWav(347, 1);
    const songId = await makeSong(t, admin, { artistId: await makeArtist(t, admin, 'Plain Artist'), audio: wav });
    expectWav(await restBytes(t, key, 'stream', { id: songId, format: 'opus', maxBitRate: 64 }), wav);
    expectWav(await restBytes(t, key, 'stream', { id: songId, maxBitRate: 64 }), wav);
    await subsonicApi(t, { apiKey: key }).error('stream', { id: songId, format: 'aac' }, 0);
  });

  it('does not list transcodeOffset, and sends the original from its start whatever timeOffset asks', async () => {
    const admin = await makeAdmin(t);
    const key = await apiKeyOf(t, admin);
    const wav = toneWav(349, 2);
    const songId = await makeSong(t, admin, { artistId: await makeArtist(t, admin, 'Plainer Artist'), audio: wav });
    expectWav(await restBytes(t, key, 'stream', { id: songId, timeOffset: 1 }), wav);
    const { openSubsonicExtensions } = await subsonicApi(t, { apiKey: key }).json('getOpenSubsonicExtensions');
    expect(openSubsonicExtensions).toEqual([
      { name: 'formPost', versions: [1] },
      { name: 'apiKeyAuthentication', versions: [1] },
      { name: 'songLyrics', versions: [1] },
      { name: 'playbackReport', versions: [1] },
      { name: 'indexBasedQueue', versions: [1] },
      { name: 'topSongsByArtistId', versions: [1] },
      { name: 'sonicSimilarity', versions: [1] },
    ]);
  });
});
