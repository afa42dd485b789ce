import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Library, SubsonicErrorCodes } from '@tonearm/contract';
import { SubsonicAPI } from 'subsonic-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { encodeAudio, requireFfmpeg } from '../../../../test/audio-formats.js';
import { describeEachDialect } from '../../../../test/dialects.js';
import { makeAdmin, makeArtist, makeSong, makeUser, type TestUser } from '../../../../test/factories.js';
import { apiKeyOf, Lyrics, LyricsList, subsonicApi, type SubsonicApi } from '../../../../test/subsonic.js';

requireFfmpeg();

const SYNCED = '[la:en]\n[offset:+250]\n[00:02.00]Second\n[00:01.00]<00:01.00>First <00:01.50>line\n[00:03.00]';
const PLAIN = 'Verse one\n\nVerse two';

/**
 * Lyrics over Subsonic (issue 27): `getLyrics` (artist and title, the plain text, Subsonic 1.2) and OpenSubsonic's
 * `songLyrics` extension (`getLyricsBySongId`), in JSON and XML checked against the documented shapes, through raw
 * requests and through the npm `subsonic-api` client.
 */
describeEachDialect('Subsonic lyrics (%s)', { env: { SCAN_WATCH: '0' } }, (t) => {
  let admin: TestUser;
  let listener: TestUser;
  let api: SubsonicApi;
  let adminApi: SubsonicApi;
  let listenerKey: string;
  let synced: number;
  let plain: number;
  let none: number;
  let base: string;

  beforeAll(async () => {
    admin = await makeAdmin(t);
    listener = await makeUser(t);
    listenerKey = await apiKeyOf(t, listener);
    api = subsonicApi(t, { apiKey: listenerKey });
    adminApi = subsonicApi(t, { apiKey: await apiKeyOf(t, admin) });
    const artistId = await makeArtist(t, admin, 'The Lyricists');
    synced = await makeSong(t, admin, { name: 'Timed Song', artistId });
    plain = await makeSong(t, admin, { name: 'Plain Song', artistId });
    none = await makeSong(t, admin, { name: 'Silent Song', artistId });
    for (const [id, text] of [
      [synced, SYNCED],
      [plain, PLAIN],
    ] as const) {
      const answer = await t.as(admin).put(`/api/songs/${String(id)}/lyrics`, { text });
      expect(answer.statusCode, answer.body).toBe(200);
    }

    // A library song with lyrics in its tags, in a library then hidden from the listener.
    base = await mkdtemp(path.join(tmpdir(), 'tonearm-subsonic-lyrics-'));
    const folder = path.join(base, 'Hidden');
    await mkdir(folder);
    await encodeAudio(path.join(folder, 'secret.mp3'), 'mp3', {
      seconds: 1,
      tags: { title: 'Secret Song', artist: 'Hidden Band', genre: 'Rock', extra: { lyrics: 'Secret words' } },
    });
    const added = await t.as(admin).post('/api/libraries', { path: folder });
    expect(added.statusCode, added.body).toBe(201);
    await t.composition.services.libraries.settled();
    const library = Library.parse(added.json());
    const access = await t.as(admin).put(`/api/libraries/${String(library.id)}/access`, {
      everyone: false,
      memberIds: [],
    });
    expect(access.statusCode, access.body).toBe(200);
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  describe('getLyricsBySongId (songLyrics)', () => {
    it('answers synced lyrics with start times as written, the offset, the language and who and what', async () => {
      const answer = await api.shape(
        'getLyricsBySongId',
        { id: String(synced) },
        z.strictObject({ lyricsList: LyricsList }),
      );
      expect(answer.lyricsList.structuredLyrics).toEqual([
        {
          displayArtist: 'The Lyricists',
          displayTitle: 'Timed Song',
          lang: 'en',
          offset: 250,
          synced: true,
          line: [
            { start: 1000, value: 'First line' },
            { start: 2000, value: 'Second' },
            { start: 3000, value: '' },
          ],
        },
      ]);
    });

    it('answers unsynced lyrics without start times, and `und` for no language', async () => {
      const answer = await api.shape(
        'getLyricsBySongId',
        { id: String(plain) },
        z.strictObject({ lyricsList: LyricsList }),
      );
      expect(answer.lyricsList.structuredLyrics).toEqual([
        {
          displayArtist: 'The Lyricists',
          displayTitle: 'Plain Song',
          lang: 'und',
          offset: 0,
          synced: false,
          line: [{ value: 'Verse one' }, { value: '' }, { value: 'Verse two' }],
        },
      ]);
    });

    it('answers an empty list for a song without lyrics', async () => {
      const answer = await api.shape(
        'getLyricsBySongId',
        { id: String(none) },
        z.strictObject({ lyricsList: LyricsList }),
      );
      expect(answer.lyricsList).toEqual({ structuredLyrics: [] });
    });

    it('answers 70 for no such song, another kind of id and a hidden song; 10 without an id', async () => {
      await api.error('getLyricsBySongId', { id: '999999' }, SubsonicErrorCodes.notFound);
      await api.error('getLyricsBySongId', { id: 'al-1' }, SubsonicErrorCodes.notFound);
      const secret = await t.db
        .selectFrom('songs')
        .select('id')
        .where('name', '=', 'Secret Song')
        .executeTakeFirstOrThrow();
      await api.error('getLyricsBySongId', { id: String(secret.id) }, SubsonicErrorCodes.notFound);
      const seen = await adminApi.shape(
        'getLyricsBySongId',
        { id: String(secret.id) },
        z.strictObject({ lyricsList: LyricsList }),
      );
      expect(seen.lyricsList.structuredLyrics?.[0]?.line).toEqual([{ value: 'Secret words' }]);
      await api.error('getLyricsBySongId', {}, SubsonicErrorCodes.missingParameter);
    });
  });

  describe('getLyrics', () => {
    it('finds lyrics by artist and title, without regard to case, as plain text', async () => {
      const answer = await api.shape(
        'getLyrics',
        { artist: 'the lyricists', title: 'TIMED SONG' },
        z.strictObject({ lyrics: Lyrics }),
      );
      expect(answer.lyrics).toEqual({ artist: 'The Lyricists', title: 'Timed Song', value: 'First line\nSecond\n' });
      const byTitle = await api.shape('getLyrics', { title: 'plain song' }, z.strictObject({ lyrics: Lyrics }));
      expect(byTitle.lyrics.value).toBe(PLAIN);
    });

    it('answers an empty text when nothing matches, when nothing is asked, and for a hidden song', async () => {
      const missing = await api.shape(
        'getLyrics',
        { artist: 'Nobody', title: 'Nothing' },
        z.strictObject({ lyrics: Lyrics }),
      );
      expect(missing.lyrics).toEqual({ artist: 'Nobody', title: 'Nothing', value: '' });
      expect((await api.shape('getLyrics', {}, z.strictObject({ lyrics: Lyrics }))).lyrics).toEqual({ value: '' });
      expect(
        (await api.shape('getLyrics', { title: 'Silent Song' }, z.strictObject({ lyrics: Lyrics }))).lyrics.value,
      ).toBe('');
      const hidden = await api.shape('getLyrics', { title: 'Secret Song' }, z.strictObject({ lyrics: Lyrics }));
      expect(hidden.lyrics.value).toBe('');
      const seen = await adminApi.shape('getLyrics', { title: 'Secret Song' }, z.strictObject({ lyrics: Lyrics }));
      expect(seen.lyrics).toEqual({ artist: 'Hidden Band', title: 'Secret Song', value: 'Secret words' });
    });
  });

  it('serves both through the npm subsonic-api client, and lists songLyrics among the extensions', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${String((t.app.server.address() as AddressInfo).port)}`;
    const client = new SubsonicAPI({ url, auth: { apiKey: listenerKey } });
    const extensions = await client.getOpenSubsonicExtensions();
    expect(extensions.openSubsonicExtensions).toContainEqual({ name: 'songLyrics', versions: [1] });
    const structured = await client.getLyricsBySongId({ id: String(synced) });
    expect(structured.status).toBe('ok');
    const list = LyricsList.parse(structured.lyricsList);
    expect(list.structuredLyrics?.[0]).toMatchObject({ synced: true, offset: 250, lang: 'en' });
    const text = await client.getLyrics({ artist: 'The Lyricists', title: 'Plain Song' });
    expect(text.lyrics).toEqual({ artist: 'The Lyricists', title: 'Plain Song', value: PLAIN });
  });
});
