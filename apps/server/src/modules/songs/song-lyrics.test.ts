import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ErrorCodes, LYRICS_MAX_BYTES, LyricsMessages, ServerMessages, SongLyricsAnswer } from '@tonearm/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { encodeAudio, requireFfmpeg } from '../../../test/audio-formats.js';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeArtist, makeSong, makeUser, type TestUser } from '../../../test/factories.js';
import { errorOf } from '../../../test/harness.js';
import { picture } from '../../../test/media.js';

requireFfmpeg();

const LRC = '[la:en]\n[offset:-300]\n[00:02.00]Second\n[00:01.00][00:03.00]Twice';

describeEachDialect('song lyrics (%s)', (t) => {
  let admin: TestUser;
  let listener: TestUser;
  let dir: string;
  let artistId: number;
  /** A song uploaded with LRC in its tags, and one without lyrics. */
  let tagged: number;
  let bare: number;

  const url = (id: number) => `/api/songs/${String(id)}/lyrics`;
  const lyricsOf = async (id: number, as: TestUser = listener) => {
    const answer = await t.as(as).get(url(id));
    expect(answer.statusCode, answer.body).toBe(200);
    return SongLyricsAnswer.parse(answer.json()).lyrics;
  };
  const flac = async (name: string, frequency: number, lyrics?: string) => {
    const file = path.join(dir, `${name}.flac`);
    await encodeAudio(file, 'flac', {
      seconds: 1,
      frequency,
      tags: { title: name, ...(lyrics === undefined ? {} : { extra: { lyrics } }) },
    });
    return readFile(file);
  };

  beforeAll(async () => {
    admin = await makeAdmin(t);
    listener = await makeUser(t);
    dir = await mkdtemp(path.join(tmpdir(), 'tonearm-song-lyrics-'));
    artistId = await makeArtist(t, admin, 'Lyric Band');
    const upload = async (name: string, audio: Buffer) =>
      makeSong(t, admin, { name, artistId, audio, cover: await picture(name.length) });
    tagged = await upload('Tagged', await flac('tagged', 300, LRC));
    bare = await upload('Bare', await flac('bare', 310));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the lyrics of an uploaded file’s tags: synced, language, offset, lines sorted, times as written', async () => {
    expect(await lyricsOf(tagged)).toEqual({
      synced: true,
      lang: 'en',
      offsetMs: -300,
      source: 'embedded',
      lines: [
        { startMs: 1000, text: 'Twice' },
        { startMs: 2000, text: 'Second' },
        { startMs: 3000, text: 'Twice' },
      ],
    });
  });

  it('answers null for a song without lyrics, 404 for no song, 401 without a session', async () => {
    expect(await lyricsOf(bare)).toBeNull();
    const missing = await t.as(listener).get(url(999_999));
    expect(missing.statusCode).toBe(404);
    expect(errorOf(missing.body).message).toBe(ServerMessages.notFound);
    expect((await t.as(null).get(url(bare))).statusCode).toBe(401);
  });

  it('lets an administrator paste LRC (JSON) or plain text, and nobody else', async () => {
    const put = await t.as(admin).put(url(bare), { text: '[00:05.00]<00:05.00>Hel<00:05.40>lo' });
    expect(put.statusCode, put.body).toBe(200);
    const saved = {
      synced: true,
      lang: null,
      offsetMs: 0,
      source: 'uploaded',
      lines: [
        {
          startMs: 5000,
          text: 'Hello',
          words: [
            { startMs: 5000, text: 'Hel' },
            { startMs: 5400, text: 'lo' },
          ],
        },
      ],
    };
    expect(SongLyricsAnswer.parse(put.json()).lyrics).toEqual(saved);
    expect(await lyricsOf(bare)).toEqual(saved);
    expect((await t.as(listener).put(url(bare), { text: 'Mine now' })).statusCode).toBe(403);

    const plain = await t.as(admin).form('PUT', url(bare), { text: 'Just words\n\nAnd more' });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(await lyricsOf(bare)).toMatchObject({
      synced: false,
      source: 'uploaded',
      lines: [{ text: 'Just words' }, { text: '' }, { text: 'And more' }],
    });
  });

  it('takes a lyrics file (UTF-16 with a byte order mark) in place of the pasted text', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('[00:01.00]Grüße', 'utf16le')]);
    const answer = await t.as(admin).form('PUT', url(bare), {
      text: 'ignored when a file is sent',
      lyricsFile: { data: bytes, filename: 'song.lrc', type: 'text/plain' },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect((await lyricsOf(bare))?.lines).toEqual([{ startMs: 1000, text: 'Grüße' }]);
  });

  it('refuses bad LRC with a 400 naming the line, and keeps the lyrics it had', async () => {
    const before = await lyricsOf(bare);
    const answer = await t.as(admin).put(url(bare), { text: '[00:01.00]One\n[00:02.00]Two\n[00:75.00]Three' });
    expect(answer.statusCode).toBe(400);
    expect(errorOf(answer.body)).toEqual({
      code: ErrorCodes.validation,
      field: 'text',
      message: LyricsMessages.badLine(3, '[00:75.00]Three', LyricsMessages.secondsTooHigh('00:75.00')),
    });
    const file = await t.as(admin).form('PUT', url(bare), {
      lyricsFile: { data: Buffer.from('[00:01.00]One\nNo time here'), filename: 'bad.lrc' },
    });
    expect(file.statusCode).toBe(400);
    expect(errorOf(file.body)).toEqual({
      code: ErrorCodes.validation,
      field: 'lyricsFile',
      message: LyricsMessages.badLine(2, 'No time here', LyricsMessages.noStamp),
    });
    expect(await lyricsOf(bare)).toEqual(before);
  });

  it('refuses nothing to save, too much, a file that is not text, and an unknown song', async () => {
    const empty = await t.as(admin).put(url(bare), { text: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(errorOf(empty.body)).toMatchObject({ field: 'text', message: LyricsMessages.textOrFile });
    expect((await t.as(admin).put(url(bare), {})).statusCode).toBe(400);
    const tooLong = await t.as(admin).put(url(bare), { text: 'x'.repeat(LYRICS_MAX_BYTES + 1) });
    expect(tooLong.statusCode).toBe(413);
    expect(errorOf(tooLong.body).message).toBe(LyricsMessages.tooLarge);
    const bigFile = await t.as(admin).form('PUT', url(bare), {
      lyricsFile: { data: Buffer.alloc(LYRICS_MAX_BYTES + 1, 0x61), filename: 'big.lrc' },
    });
    expect(bigFile.statusCode).toBe(413);
    const binary = await t.as(admin).form('PUT', url(bare), {
      lyricsFile: { data: await picture(3), filename: 'cover.lrc' },
    });
    expect(binary.statusCode).toBe(415);
    expect(errorOf(binary.body)).toMatchObject({ field: 'lyricsFile', message: LyricsMessages.notText });
    expect((await t.as(admin).put(url(999_999), { text: 'Words' })).statusCode).toBe(404);
  });

  it('keeps an administrator’s lyrics when the song takes a new audio file; a new file replaces the file’s own', async () => {
    await t.as(admin).put(url(bare), { text: 'Kept words' });
    const replaced = await t.as(admin).form('PUT', `/api/songs/${String(bare)}`, {
      name: 'Bare',
      genre: 'Pop',
      songFile: { data: await flac('bare-2', 320, '[00:09.00]From the file'), filename: 'bare.flac' },
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(await lyricsOf(bare)).toMatchObject({ source: 'uploaded', lines: [{ text: 'Kept words' }] });

    const retagged = await t.as(admin).form('PUT', `/api/songs/${String(tagged)}`, {
      name: 'Tagged',
      genre: 'Pop',
      songFile: { data: await flac('tagged-2', 330, 'New plain words'), filename: 'tagged.flac' },
    });
    expect(retagged.statusCode, retagged.body).toBe(200);
    expect(await lyricsOf(tagged)).toMatchObject({
      source: 'embedded',
      synced: false,
      lines: [{ text: 'New plain words' }],
    });
    const untagged = await t.as(admin).form('PUT', `/api/songs/${String(tagged)}`, {
      name: 'Tagged',
      genre: 'Pop',
      songFile: { data: await flac('tagged-3', 340), filename: 'tagged.flac' },
    });
    expect(untagged.statusCode, untagged.body).toBe(200);
    expect(await lyricsOf(tagged)).toBeNull();
  });

  it('removes lyrics (administrators only; none left is no error), and they go with the song', async () => {
    expect((await t.as(listener).delete(url(bare))).statusCode).toBe(403);
    expect((await t.as(admin).delete(url(bare))).statusCode).toBe(204);
    expect(await lyricsOf(bare)).toBeNull();
    expect((await t.as(admin).delete(url(bare))).statusCode).toBe(204);
    expect((await t.as(admin).delete(url(999_999))).statusCode).toBe(404);

    await t.as(admin).put(url(bare), { text: 'Going' });
    expect((await t.as(admin).delete(`/api/songs/${String(bare)}`)).statusCode).toBe(200);
    const left = await t.db.selectFrom('song_lyrics').select('song_id').where('song_id', '=', bare).execute();
    expect(left).toEqual([]);
  });
});
