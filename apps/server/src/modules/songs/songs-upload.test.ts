import { AUDIO_MAX_BYTES, IMAGE_MAX_BYTES, ServerMessages, Song } from '@tonearm/contract';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeArtist, makeSong, type TestUser } from '../../../test/factories.js';
import { errorOf } from '../../../test/harness.js';
import { multipartBody, picture, streamedMultipart, toneWav, type FormValue } from '../../../test/media.js';
import { blobCounts, songCount, type BlobCounts } from '../../../test/stored.js';
import { AudioMessages, ImageMessages } from '../../media/media.formats.js';

interface Snapshot {
  rows: number;
  blobs: BlobCounts;
}

describeEachDialect('song upload pipeline (%s)', (t) => {
  let admin: TestUser;
  let artistId: number;
  let before: Snapshot;
  let frequency = 300;

  const snapshot = async (): Promise<Snapshot> => ({ rows: await songCount(t.db), blobs: await blobCounts(t.dataDir) });
  const wav = () => toneWav((frequency += 11));
  const wavPart = (data: Buffer = wav()): FormValue => ({ data, filename: 'song.wav', type: 'audio/wav' });
  const pngPart = async (seed = frequency): Promise<FormValue> => ({
    data: await picture(seed),
    filename: 'cover.png',
    type: 'image/png',
  });
  const post = (fields: Record<string, FormValue>) => t.as(admin).form('POST', '/api/songs', fields);
  const put = (id: number, fields: Record<string, FormValue>) => t.as(admin).form('PUT', `/api/songs/${id}`, fields);
  const baseFields = () => ({ name: 'Refused', genre: 'Pop', artistId: String(artistId) });
  const songOf = (id: number) => t.as(admin).json(`/api/songs/${id}`, Song);

  /** The refusal: status, code, message (and field), and not one row or byte left behind. */
  async function expectRefused(
    response: LightMyRequestResponse,
    status: number,
    message: string,
    field?: string,
  ): Promise<void> {
    expect(response.statusCode, response.body).toBe(status);
    const error = errorOf(response.body);
    expect(error.message).toBe(message);
    if (field !== undefined) expect(error.field).toBe(field);
    expect(await snapshot()).toEqual(before);
    expect(before.blobs.tmp).toBe(0);
  }

  beforeAll(async () => {
    admin = await makeAdmin(t);
    artistId = await makeArtist(t, admin, 'Pipeline Artist', await picture(1));
    await makeSong(t, admin, { name: 'Already Here', artistId });
  });

  beforeEach(async () => {
    before = await snapshot();
  });

  describe('POST /api/songs refuses', () => {
    it('a form without both files: 400 "Please upload both song and image files."', async () => {
      await expectRefused(await post(baseFields()), 400, ServerMessages.uploadBothFiles);
      await expectRefused(await post({ ...baseFields(), songFile: wavPart() }), 400, ServerMessages.uploadBothFiles);
      await expectRefused(
        await post({ ...baseFields(), imageFile: await pngPart() }),
        400,
        ServerMessages.uploadBothFiles,
      );
      // A browser sends an <input type="file"> left empty as a part with filename="" and no bytes: still "no file".
      const { payload, headers } = multipartBody({ ...baseFields(), songFile: wavPart() });
      const boundary = /boundary=(.+)$/.exec(headers['content-type'])?.[1] ?? '';
      const emptyInput =
        `--${boundary}\r\nContent-Disposition: form-data; name="imageFile"; filename=""\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n\r\n';
      const body = payload.toString('latin1').replace(`--${boundary}--`, `${emptyInput}--${boundary}--`);
      await expectRefused(
        await t.as(admin).post('/api/songs', Buffer.from(body, 'latin1'), { headers }),
        400,
        ServerMessages.uploadBothFiles,
      );
    });

    it('a PNG named .mp3 and sent as audio/mpeg: 415 naming the accepted audio types', async () => {
      const fake: FormValue = { data: await picture(7), filename: 'hit.mp3', type: 'audio/mpeg' };
      await expectRefused(
        await post({ ...baseFields(), songFile: fake, imageFile: await pngPart() }),
        415,
        AudioMessages.wrongType,
        'songFile',
      );
      expect(AudioMessages.wrongType).toBe('Audio must be MP3, FLAC, OGG/Opus, M4A/AAC or WAV');
    });

    it('text or audio sent as the image: 415 naming the accepted image types', async () => {
      const text: FormValue = { data: Buffer.from('not a picture at all'), filename: 'cover.jpg', type: 'image/jpeg' };
      await expectRefused(
        await post({ ...baseFields(), songFile: wavPart(), imageFile: text }),
        415,
        ImageMessages.wrongType,
        'imageFile',
      );
      const audio: FormValue = { data: wav(), filename: 'cover.png', type: 'image/png' };
      await expectRefused(
        await post({ ...baseFields(), songFile: wavPart(), imageFile: audio }),
        415,
        ImageMessages.wrongType,
        'imageFile',
      );
    });

    it('an image with a valid signature but broken data: 415', async () => {
      const png = await picture(9);
      const broken: FormValue = { data: Buffer.concat([png.subarray(0, 40), Buffer.alloc(400, 7)]), filename: 'x.png' };
      await expectRefused(
        await post({ ...baseFields(), songFile: wavPart(), imageFile: broken }),
        415,
        ImageMessages.unreadable,
        'imageFile',
      );
    });

    it('audio over 200 MB: 413, and the partial upload is gone', async () => {
      const { stream, contentType } = streamedMultipart(baseFields(), {
        field: 'songFile',
        filename: 'huge.wav',
        head: wav(),
        fileBytes: AUDIO_MAX_BYTES + 1,
      });
      const response = await t.as(admin).post('/api/songs', stream, { headers: { 'content-type': contentType } });
      await expectRefused(response, 413, AudioMessages.tooLarge(), 'songFile');
    });

    it('an image over 15 MB: 413, and the audio staged before it is gone too', async () => {
      // The audio part goes first, so it is fully staged when the image trips the limit.
      const { stream, contentType } = streamedMultipart(
        { ...baseFields(), songFile: wavPart() },
        { field: 'imageFile', filename: 'huge.png', head: await picture(11), fileBytes: IMAGE_MAX_BYTES + 1 },
      );
      const response = await t.as(admin).post('/api/songs', stream, { headers: { 'content-type': contentType } });
      await expectRefused(response, 413, ImageMessages.tooLarge(), 'imageFile');
    });

    it('a genre outside SPEC §5, a missing name, or a bad artistId: 400 naming the field', async () => {
      const files = async () => ({ songFile: wavPart(), imageFile: await pngPart() });
      await expectRefused(
        await post({ ...baseFields(), genre: 'Polka', ...(await files()) }),
        400,
        'Choose a genre from the list',
        'genre',
      );
      await expectRefused(
        await post({ genre: 'Pop', artistId: String(artistId), ...(await files()) }),
        400,
        'Name is required',
        'name',
      );
      await expectRefused(
        await post({ name: 'x', genre: 'Pop', ...(await files()) }),
        400,
        'Choose an artist',
        'artistId',
      );
      await expectRefused(
        await post({ ...baseFields(), artistId: 'seven', ...(await files()) }),
        400,
        'Choose an artist',
        'artistId',
      );
    });

    it('an artist that does not exist: 400 "Artist not found"', async () => {
      await expectRefused(
        await post({ ...baseFields(), artistId: '999999', songFile: wavPart(), imageFile: await pngPart() }),
        400,
        ServerMessages.artistNotFound,
        'artistId',
      );
    });

    it('audio already in the catalogue (same bytes, any name): 409', async () => {
      const audio = wav();
      await makeSong(t, admin, { name: 'Original', artistId, audio });
      before = await snapshot();
      const again = { data: audio, filename: 'renamed-copy.wav', type: 'audio/wav' };
      await expectRefused(
        await post({ ...baseFields(), name: 'Copy', songFile: again, imageFile: await pngPart() }),
        409,
        ServerMessages.songExists,
        'songFile',
      );
    });

    it('a body that is not multipart: 415; an unexpected or repeated file field: 400', async () => {
      const json = await t.as(admin).post('/api/songs', { name: 'x', genre: 'Pop', artistId });
      await expectRefused(json, 415, 'Send this form as multipart/form-data');
      await expectRefused(
        await post({ ...baseFields(), songFile: wavPart(), extra: await pngPart() }),
        400,
        'Unexpected file field extra',
        'extra',
      );
    });
  });

  describe('PUT /api/songs/{id}', () => {
    it('replaces the files and removes the old blobs once no row needs them', async () => {
      const id = await makeSong(t, admin, { name: 'Replace Me', artistId });
      const old = await songOf(id);
      const start = await blobCounts(t.dataDir);
      const response = await put(id, {
        name: 'Replaced',
        genre: 'Rock',
        songFile: wavPart(toneWav(1234, 1)),
        imageFile: await pngPart(77),
      });
      expect(response.statusCode, response.body).toBe(200);
      const now = await songOf(id);
      expect(now.link).not.toBe(old.link);
      expect(now.imgLink).not.toBe(old.imgLink);
      expect(now.durationMs).toBe(1000);
      // One audio out, one in; one image set (original + 3 thumbnails) out, one in.
      expect(await blobCounts(t.dataDir)).toEqual(start);
      const oldAudio = await t.as(admin).get(old.link);
      expect(oldAudio.statusCode).toBe(404);
      expect((await t.as(null).get(old.imgLink)).statusCode).toBe(404);
      expect((await t.as(admin).get(now.link)).statusCode).toBe(200);
      expect((await t.as(null).get(now.imgLink)).statusCode).toBe(200);
    });

    it('keeps a cover another song still uses, and removes it with its last user', async () => {
      const cover = await picture(4242);
      const a = await makeSong(t, admin, { name: 'Shared A', artistId, cover });
      const b = await makeSong(t, admin, { name: 'Shared B', artistId, cover });
      const shared = (await songOf(a)).imgLink;
      expect((await songOf(b)).imgLink).toBe(shared);
      expect((await put(a, { name: 'Shared A', genre: 'Pop', imageFile: await pngPart(4343) })).statusCode).toBe(200);
      expect((await t.as(null).get(shared)).statusCode).toBe(200);
      const imagesBefore = (await blobCounts(t.dataDir)).image;
      const del = await t.as(admin).delete(`/api/songs/${b}`);
      expect(del.statusCode).toBe(200);
      expect((await t.as(null).get(shared)).statusCode).toBe(404);
      expect((await blobCounts(t.dataDir)).image).toBe(imagesBefore - 4);
    });

    it('refuses audio that another song already has (409) and changes nothing', async () => {
      const taken = wav();
      await makeSong(t, admin, { name: 'Holder', artistId, audio: taken });
      const id = await makeSong(t, admin, { name: 'Editor', artistId });
      const song = await songOf(id);
      before = await snapshot();
      await expectRefused(
        await put(id, { name: 'Edited', genre: 'Pop', songFile: wavPart(taken) }),
        409,
        ServerMessages.songExists,
        'songFile',
      );
      expect(await songOf(id)).toEqual(song);
    });

    it('refuses a bad replacement file (415) and keeps the song as it was', async () => {
      const id = await makeSong(t, admin, { name: 'Stable', artistId });
      const song = await songOf(id);
      before = await snapshot();
      const fake: FormValue = { data: await picture(5), filename: 'x.mp3', type: 'audio/mpeg' };
      await expectRefused(
        await put(id, { name: 'Unstable', genre: 'Pop', songFile: fake, imageFile: await pngPart(555) }),
        415,
        AudioMessages.wrongType,
        'songFile',
      );
      expect(await songOf(id)).toEqual(song);
    });

    it('accepts re-uploading the song’s own audio', async () => {
      const audio = wav();
      const id = await makeSong(t, admin, { name: 'Same Again', artistId, audio });
      const response = await put(id, { name: 'Same Again', genre: 'Pop', songFile: wavPart(audio) });
      expect(response.statusCode, response.body).toBe(200);
      expect((await t.as(admin).get((await songOf(id)).link)).statusCode).toBe(200);
    });
  });

  it('DELETE /api/songs/{id} removes the song’s audio and cover blobs', async () => {
    const id = await makeSong(t, admin, { name: 'Doomed', artistId });
    const start = await blobCounts(t.dataDir);
    expect((await t.as(admin).delete(`/api/songs/${id}`)).statusCode).toBe(200);
    expect(await blobCounts(t.dataDir)).toEqual({ ...start, audio: start.audio - 1, image: start.image - 4 });
  });
});
