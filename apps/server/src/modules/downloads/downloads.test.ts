import { ServerMessages, UNKNOWN_ARTIST } from '@tonearm/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertSongs, makeAdmin, makeUser, type TestSong, type TestUser } from '../../../test/factories.js';
import { errorOf } from '../../../test/harness.js';
import { testBlobStore } from '../../../test/stored.js';
import { attachmentDisposition, downloadFilename } from './download-filename.js';

const AUDIO = Buffer.from('ID3\u0003\u0000fake mp3 bytes for the download test');

describe('download file names', () => {
  it('is "<artist> - <name>.<ext>" with the extension of the stored key', () => {
    expect(downloadFilename('Nina Simone', 'Feeling Good', 'abc.mp3')).toBe('Nina Simone - Feeling Good.mp3');
    expect(downloadFilename(null, 'Orphan', 'abc.flac')).toBe(`${UNKNOWN_ARTIST} - Orphan.flac`);
  });

  it('removes path separators, reserved and control characters', () => {
    expect(downloadFilename('AC/DC', 'What?: "Live" <1979>\u0000\n', 'k.ogg')).toBe('AC DC - What Live 1979.ogg');
    // No separator survives, and the name never starts with a dot (a hidden file).
    expect(downloadFilename('..', '../../etc/passwd', 'k.mp3')).toBe(`${UNKNOWN_ARTIST} - .. etc passwd.mp3`);
    expect(downloadFilename('.hidden', 'x', 'k.mp3')).toBe('hidden - x.mp3');
  });

  it('keeps the exact UTF-8 name in filename* and an ASCII fallback in filename', () => {
    expect(attachmentDisposition('Björk - Jóga.mp3')).toBe(
      `attachment; filename="Bjork - Joga.mp3"; filename*=UTF-8''Bj%C3%B6rk%20-%20J%C3%B3ga.mp3`,
    );
    expect(attachmentDisposition("It's (100%).mp3")).toBe(
      `attachment; filename="It's (100).mp3"; filename*=UTF-8''It%27s%20%28100%25%29.mp3`,
    );
  });
});

describeEachDialect('GET /api/songs/{id}/download (%s)', (t) => {
  let song: TestSong;
  let missingBlob: TestSong;
  let admin: TestUser;
  let premium: TestUser;
  let regular: TestUser;
  let lapsed: TestUser;

  beforeAll(async () => {
    [song, missingBlob] = (await insertSongs(t, 2, 'Nina Simone')) as [TestSong, TestSong];
    const staged = await testBlobStore(t.dataDir).stage('audio', AUDIO);
    await staged.commit(song.audioKey);
    admin = await makeAdmin(t);
    premium = await makeUser(t, { premium: true });
    regular = await makeUser(t);
    lapsed = await makeUser(t, { premium: new Date(Date.now() - 60_000).toISOString() });
  });

  const download = (user: TestUser | undefined, id: number, headers: Record<string, string> = {}) =>
    t.as(user).get(`/api/songs/${id}/download`, { headers });

  it('serves the audio as an attachment to premium users and admins', async () => {
    for (const user of [premium, admin]) {
      const response = await download(user, song.id);
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.equals(AUDIO)).toBe(true);
      expect(response.headers['content-type']).toBe('audio/mpeg');
      expect(response.headers['content-disposition']).toBe(
        `attachment; filename="Nina Simone - ${song.name}.mp3"; filename*=UTF-8''Nina%20Simone%20-%20${song.name.replace(' ', '%20')}.mp3`,
      );
      expect(response.headers['content-encoding']).toBeUndefined();
    }
  });

  it('supports a byte range (resumed downloads)', async () => {
    const response = await download(premium, song.id, { range: 'bytes=0-3' });
    expect(response.statusCode).toBe(206);
    expect(response.rawPayload.equals(AUDIO.subarray(0, 4))).toBe(true);
  });

  it('refuses users without premium with 403 pointing to the payment page, 401 without a session', async () => {
    for (const user of [regular, lapsed]) {
      const response = await download(user, song.id);
      expect(response.statusCode).toBe(403);
      expect(errorOf(response.body).message).toBe(ServerMessages.premiumRequired);
      expect(response.headers['content-disposition']).toBeUndefined();
    }
    expect((await download(undefined, song.id)).statusCode).toBe(401);
  });

  it('answers 404 for an unknown song or a song whose audio is missing, 400 for a bad id', async () => {
    expect((await download(premium, 987_654)).statusCode).toBe(404);
    expect((await download(premium, missingBlob.id)).statusCode).toBe(404);
    expect((await t.as(premium).get('/api/songs/x/download')).statusCode).toBe(400);
  });

  it('names the file "Unknown artist - …" once the artist is deleted', async () => {
    const artistId = (
      await t.db.selectFrom('songs').select('artist_id').where('id', '=', song.id).executeTakeFirstOrThrow()
    ).artist_id;
    await t.db.updateTable('songs').set({ artist_id: null }).where('id', '=', song.id).execute();
    try {
      const response = await download(premium, song.id);
      expect(response.headers['content-disposition']).toContain(`filename="${UNKNOWN_ARTIST} - ${song.name}.mp3"`);
    } finally {
      await t.db.updateTable('songs').set({ artist_id: artistId }).where('id', '=', song.id).execute();
    }
  });
});
