import { ListeningStats, ServerStats, YEAR_CARD_HEIGHT, YEAR_CARD_WIDTH, YearSummary } from '@tonearm/contract';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeUser, type TestUser } from '../../../test/factories.js';
import { errorOf } from '../../../test/harness.js';
import { insertListens, songsOfLength } from '../../../test/listening.js';
import { CARD_COLOURS, yearCardSvg } from './year-card.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Pixels of the region that are near white: only text is drawn in white on the card's dark ground. */
async function whitePixels(png: Buffer, region: { left: number; top: number; width: number; height: number }) {
  const { data, info } = await sharp(png).extract(region).raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let at = 0; at < data.length; at += info.channels) {
    if ((data[at] ?? 0) > 200 && (data[at + 1] ?? 0) > 200 && (data[at + 2] ?? 0) > 200) count += 1;
  }
  return count;
}

describe('the year card’s SVG', () => {
  it('escapes what listeners and tags wrote, and clips long titles', () => {
    const svg = yearCardSvg(
      {
        year: 2026,
        timeZone: 'UTC',
        plays: 1,
        listenedMs: 200_000,
        minutes: 3,
        topSongs: [{ songId: 1, name: `<script>&"${'x'.repeat(80)}`, artistName: 'Band', plays: 1, listenedMs: 1 }],
        topArtists: [{ artistId: 1, name: "O'Brien & B", plays: 1, listenedMs: 1 }],
        topGenres: [{ genre: 'Rock', plays: 1, listenedMs: 1 }],
        byMonth: Array.from({ length: 12 }, (_, index) => ({ month: index + 1, plays: 0, listenedMs: 0 })),
        newArtistCount: 1,
      },
      'ann<',
    );
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&#60;script&#62;&#38;&#34;');
    expect(svg).toContain('O&#39;Brien &#38; B');
    expect(svg).toContain('ann&#60;’s 2026');
    expect(svg).toContain('…');
    expect(svg).not.toContain('x'.repeat(60));
  });
});

describeEachDialect('statistics API (%s)', (t) => {
  let listener: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    listener = await makeUser(t);
    admin = await makeAdmin(t);
    const [song] = await songsOfLength(t, 1, 200_000);
    if (song === undefined) throw new Error('no song');
    const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    await insertListens(t, [
      { userId: listener.id, songId: song.id, playedAt: ago(1), listenedMs: 200_000 },
      { userId: listener.id, songId: song.id, playedAt: ago(20), listenedMs: 100_000 },
      { userId: listener.id, songId: song.id, playedAt: ago(400), listenedMs: 150_000 },
      { userId: admin.id, songId: song.id, playedAt: ago(2), listenedMs: 120_000 },
    ]);
  });

  it('answers 401 without a session, and the server’s statistics to administrators only', async () => {
    for (const url of ['/api/stats', '/api/stats/year/2026', '/api/stats/year/2026/card.png', '/api/admin/stats']) {
      expect((await t.as(null).get(url)).statusCode, url).toBe(401);
    }
    expect((await t.as(listener).get('/api/admin/stats')).statusCode).toBe(403);
    const server = ServerStats.parse((await t.as(admin).get('/api/admin/stats?days=7&tz=Europe/Paris')).json());
    expect(server.activeListeners).toHaveLength(7);
    expect(server.activeListeners.reduce((sum, day) => sum + day.plays, 0)).toBe(2);
  });

  it('sums the caller’s own listens over the period asked', async () => {
    const periods = { week: [1, 200_000], month: [2, 300_000], year: [2, 300_000], all: [3, 450_000] } as const;
    for (const [period, [plays, listenedMs]] of Object.entries(periods)) {
      const answer = await t.as(listener).get(`/api/stats?period=${period}&tz=America/New_York`);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(ListeningStats.parse(answer.json())).toMatchObject({ period, plays, listenedMs });
    }
    // A month and UTC unless asked.
    expect(ListeningStats.parse((await t.as(listener).get('/api/stats')).json())).toMatchObject({
      period: 'month',
      timeZone: 'UTC',
      plays: 2,
    });
    // The year of the administrator's listen (two days ago) at +05:30: right on the first days of January too.
    const year = new Date(Date.now() - 2 * 86_400_000 + 330 * 60_000).getUTCFullYear();
    const summary = YearSummary.parse((await t.as(admin).get(`/api/stats/year/${year}?tz=%2B05%3A30`)).json());
    expect(summary).toMatchObject({ timeZone: '+05:30', minutes: 2 });
  });

  it('refuses a bad period, time zone or year with 400 naming the field', async () => {
    const cases: [string, string][] = [
      ['/api/stats?period=decade', 'period'],
      ['/api/stats?tz=Mars/Olympus_Mons', 'tz'],
      ['/api/stats?tz=%2B25:00', 'tz'],
      ['/api/stats?tz=..%2F..%2Fetc', 'tz'],
      [`/api/stats?tz=${'A'.repeat(80)}`, 'tz'],
      ['/api/stats/year/20x6', 'year'],
      ['/api/stats/year/0999', 'year'],
      ['/api/stats/year/12026', 'year'],
      ['/api/stats/year/2026/card.png?tz=nowhere', 'tz'],
      ['/api/admin/stats?days=0', 'days'],
      ['/api/admin/stats?days=367', 'days'],
      ['/api/admin/stats?days=1.5', 'days'],
    ];
    for (const [url, field] of cases) {
      const answer = await t.as(admin).get(url);
      expect(answer.statusCode, `${url}: ${answer.body}`).toBe(400);
      expect(errorOf(answer.body).field, url).toBe(field);
    }
  });

  it('draws the year as a real PNG of the card’s size, with text on it', async () => {
    // The year of yesterday's listen in Paris (at most two hours ahead of UTC).
    const year = new Date(Date.now() - 86_400_000 + 2 * 3_600_000).getUTCFullYear();
    const answer = await t.as(listener).get(`/api/stats/year/${year}/card.png?tz=Europe/Paris`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe('image/png');
    const png = answer.rawPayload;
    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', YEAR_CARD_WIDTH, YEAR_CARD_HEIGHT]);
    // Not blank: the ground's gradient runs from one colour to the other, and the title and the minutes are drawn.
    const { channels } = await sharp(png).stats();
    expect(channels.slice(0, 3).every((channel) => channel.max - channel.min > 40)).toBe(true);
    const title = { left: 80, top: 130, width: 900, height: 80 };
    expect(await whitePixels(png, title)).toBeGreaterThan(1000);
    // The accent's figures (the minutes listened) are there too.
    const { data, info } = await sharp(png).extract({ left: 80, top: 230, width: 600, height: 110 }).raw().toBuffer({
      resolveWithObject: true,
    });
    const accent = [0xff, 0xd1, 0x66];
    let accented = 0;
    for (let at = 0; at < data.length; at += info.channels) {
      if (accent.every((value, index) => Math.abs((data[at + index] ?? 0) - value) < 30)) accented += 1;
    }
    expect(accented).toBeGreaterThan(500);
    expect(CARD_COLOURS.accent).toBe('#ffd166');

    // A year without listens is another card.
    const empty = await t.as(listener).get('/api/stats/year/1999/card.png');
    expect(empty.statusCode).toBe(200);
    expect(empty.rawPayload.equals(png)).toBe(false);
  });
});
