import { ExportedListen } from '@tonearm/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeUser, type TestUser } from '../../../test/factories.js';
import { hiddenLibrarySong, insertListens, songsOfLength } from '../../../test/listening.js';
import { csvField, csvRecord } from './listens-export.js';

/** Three minutes. */
const SONG_MS = 180_000;

describe('CSV fields', () => {
  it('quotes commas, quotes and line breaks (RFC 4180), and defuses formulas', () => {
    expect(csvField('Plain')).toBe('Plain');
    expect(csvField('Hello, World')).toBe('"Hello, World"');
    expect(csvField('Say "hi"')).toBe('"Say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvField('=SUM(A1:A2)')).toBe("'=SUM(A1:A2)");
    expect(csvField('+44')).toBe("'+44");
    expect(csvField('-1')).toBe("'-1");
    expect(csvField('@cmd')).toBe("'@cmd");
    expect(csvField('=HYPERLINK("x","y")')).toBe('"\'=HYPERLINK(""x"",""y"")"');
    expect(csvField(null)).toBe('');
    expect(csvField(-5)).toBe('-5');
    expect(csvField('')).toBe('');
    expect(csvRecord(['a', 1, null, 'b,c'])).toBe('a,1,,"b,c"\r\n');
  });
});

describeEachDialect('listens export (%s)', (t) => {
  let listener: TestUser;
  let song: number;
  let other: number;

  beforeAll(async () => {
    listener = await makeUser(t);
    const songs = await songsOfLength(t, 2, SONG_MS);
    song = songs[0]?.id ?? 0;
    other = songs[1]?.id ?? 0;
  });

  const csvOf = async (user: TestUser) => {
    const answer = await t.as(user).get('/api/listens/export.csv');
    expect(answer.statusCode, answer.body).toBe(200);
    return answer;
  };
  const jsonOf = async (user: TestUser) => {
    const answer = await t.as(user).get('/api/listens/export.json');
    expect(answer.statusCode, answer.body).toBe(200);
    return answer;
  };

  it('answers 401 without a session', async () => {
    expect((await t.as(null).get('/api/listens/export.csv')).statusCode).toBe(401);
    expect((await t.as(null).get('/api/listens/export.json')).statusCode).toBe(401);
  });

  it('writes every listen of the caller, oldest first, as CSV and JSON attachments', async () => {
    const user = await makeUser(t, { username: `exporter${Date.now()}` });
    const [odd, gone] = await songsOfLength(t, 2, SONG_MS);
    if (odd === undefined || gone === undefined) throw new Error('no songs');
    await t.db.updateTable('songs').set({ name: '=Danger, "quoted"\nsong' }).where('id', '=', odd.id).execute();
    const hidden = await hiddenLibrarySong(t, () => t.composition.services.libraryAccess.changed());
    await insertListens(t, [
      {
        userId: user.id,
        songId: odd.id,
        playedAt: '2026-03-01T10:00:00.000Z',
        listenedMs: 100_000,
        client: 'Car, left',
      },
      {
        userId: user.id,
        songId: gone.id,
        playedAt: '2026-03-01T09:00:00.000Z',
        listenedMs: 120_000,
        source: 'subsonic',
      },
      { userId: user.id, songId: hidden.id, playedAt: '2026-03-02T09:00:00.000Z', listenedMs: 130_000 },
      { userId: listener.id, songId: odd.id, playedAt: '2026-03-01T11:00:00.000Z', listenedMs: 99_000 },
    ]);
    await t.db.deleteFrom('songs').where('id', '=', gone.id).execute();

    const csv = await csvOf(user);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="tonearm-listens-${user.username}-\\d{4}-\\d{2}-\\d{2}\\.csv"`),
    );
    const artist = (
      await t.db
        .selectFrom('artists')
        .innerJoin('songs', 'songs.artist_id', 'artists.id')
        .select('artists.name')
        .where('songs.id', '=', odd.id)
        .executeTakeFirstOrThrow()
    ).name;
    expect(csv.body).toBe(
      'played_at,listened_ms,song_id,song,artist,album,source,client\r\n' +
        '2026-03-01T09:00:00.000Z,120000,,,,,subsonic,\r\n' +
        `2026-03-01T10:00:00.000Z,100000,${odd.id},"'=Danger, ""quoted""\nsong",${artist},,web,"Car, left"\r\n` +
        '2026-03-02T09:00:00.000Z,130000,,,,,web,\r\n',
    );

    const json = await jsonOf(user);
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(json.headers['content-disposition']).toMatch(/filename="tonearm-listens-.*\.json"/);
    expect(z.array(ExportedListen).parse(json.json())).toEqual([
      {
        playedAt: '2026-03-01T09:00:00.000Z',
        listenedMs: 120_000,
        songId: null,
        song: null,
        artist: null,
        album: null,
        source: 'subsonic',
        client: null,
      },
      {
        playedAt: '2026-03-01T10:00:00.000Z',
        listenedMs: 100_000,
        songId: odd.id,
        song: '=Danger, "quoted"\nsong',
        artist,
        album: null,
        source: 'web',
        client: 'Car, left',
      },
      {
        playedAt: '2026-03-02T09:00:00.000Z',
        listenedMs: 130_000,
        songId: null,
        song: null,
        artist: null,
        album: null,
        source: 'web',
        client: null,
      },
    ]);
  });

  it('streams a long history page by page, each listen once, in order; an empty one is a header or []', async () => {
    const user = await makeUser(t);
    expect((await csvOf(user)).body).toBe('played_at,listened_ms,song_id,song,artist,album,source,client\r\n');
    expect((await jsonOf(user)).json()).toEqual([]);
    const base = Date.parse('2025-01-01T00:00:00.000Z');
    // 2 500 listens over 2 pages and a half; two (of two songs) share each instant: the id breaks the tie.
    const rows = Array.from({ length: 2500 }, (_, index) => ({
      userId: user.id,
      songId: index % 2 === 0 ? song : other,
      playedAt: new Date(base + Math.floor(index / 2) * 60_000).toISOString(),
      listenedMs: 90_000 + index,
    }));
    for (let start = 0; start < rows.length; start += 500) await insertListens(t, rows.slice(start, start + 500));
    const listens = z.array(ExportedListen).parse((await jsonOf(user)).json());
    expect(listens.map((row) => row.listenedMs)).toEqual(rows.map((row) => row.listenedMs));
    const lines = (await csvOf(user)).body.split('\r\n');
    expect(lines).toHaveLength(2502);
    expect(lines[2500]?.startsWith('2026')).toBe(false);
    expect(lines[2500]).toContain(',92499,');
  });
});
