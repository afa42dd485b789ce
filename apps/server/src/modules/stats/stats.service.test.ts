import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { moveToPlaceholders } from '../../db/album-placeholders.js';
import type { DB } from '../../db/schema.js';
import { WorkGate } from '../../media/image-work.js';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertUser } from '../../../test/factories.js';
import { insertListens } from '../../../test/listening.js';
import { createServerStatsRepository } from './server-stats.repository.js';
import { createStatsRepository } from './stats.repository.js';
import { StatsService, type StatsViewer } from './stats.service.js';

/*
 * The statistics queries on both dialects, against numbers worked out by hand from one small history (below). "Now"
 * is fixed: Monday 15 June 2026, 12:00 UTC.
 */
const NOW = new Date('2026-06-15T12:00:00.000Z');

interface Fixture {
  ana: StatsViewer;
  ben: StatsViewer;
  songs: Record<'alpha' | 'beta' | 'gamma' | 'delta' | 'zeta', number>;
  artists: Record<'one' | 'two' | 'four', number>;
  albums: Record<'first' | 'second', number>;
}

/**
 * Songs (3 min 20 s each unless said): Alpha (Artist One, Rock, album First), Beta (Artist One with Artist Two credited,
 * Pop, First), Gamma (Artist Two, Jazz, no album), Delta (Artist Three, Rock, in a library hidden from listeners),
 * Epsilon (Artist Three, deleted after its listen), Zeta (Artist Four, Pop, album Second).
 *
 * Ana's listens (UTC; Paris is UTC+1 until 29 March 01:00 UTC, then UTC+2):
 *   2025-12-31 23:30 Gamma  50 s   (Paris: Thu 1 Jan 2026 00:30)
 *   2026-03-29 00:30 Beta   60 s   (Paris: Sun 01:30, still UTC+1)
 *   2026-06-01 12:00 Alpha 100 s   (Mon 14:00)
 *   2026-06-09 18:00 Zeta   90 s   (Tue 20:00)
 *   2026-06-10 12:00 Gamma 150 s   (Wed 14:00)
 *   2026-06-11 12:00 Epsilon 100 s (Thu 14:00; the song is deleted)
 *   2026-06-12 12:00 Delta 180 s   (Fri 14:00; hidden from Ana)
 *   2026-06-13 07:15 Beta  120 s   (Sat 09:15)
 *   2026-06-13 22:30 Alpha 100 s   (Sun 14 June 00:30)
 *   2026-06-14 20:30 Alpha 200 s   (Sun 22:30)
 * Ben's: 2026-06-14 10:00 Alpha 200 s.
 */
async function seed(db: Kysely<DB>): Promise<Fixture> {
  const artist = async (name: string) =>
    (await db.insertInto('artists').values({ name }).returning('id').executeTakeFirstOrThrow()).id;
  const [one, two, three, four] = [
    await artist('Artist One'),
    await artist('Artist Two'),
    await artist('Artist Three'),
    await artist('Artist Four'),
  ];
  const album = async (name: string, artistId: number) =>
    (
      await db
        .insertInto('albums')
        .values({ name, artist_id: artistId, year: 2026, created_at: NOW.toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const [first, second] = [await album('First', one), await album('Second', four)];
  const library = await db
    .insertInto('libraries')
    .values({ name: 'Closed', path: '/nonexistent/closed', created_at: NOW.toISOString(), everyone: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const song = async (name: string, artistId: number, genre: string, createdAt: string, bytes: number) =>
    (
      await db
        .insertInto('songs')
        .values({
          name,
          genre,
          artist_id: artistId,
          audio_key: `${name}.mp3`,
          audio_sha256: name,
          mime: 'audio/mpeg',
          size_bytes: bytes,
          duration_ms: 200_000,
          image_key: null,
          created_at: createdAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const songs = {
    alpha: await song('Alpha', one, 'Rock', '2026-01-05T10:00:00.000Z', 1000),
    beta: await song('Beta', one, 'Pop', '2026-01-20T10:00:00.000Z', 2000),
    gamma: await song('Gamma', two, 'Jazz', '2026-03-10T10:00:00.000Z', 4000),
    delta: await song('Delta', three, 'Rock', '2026-06-01T10:00:00.000Z', 8000),
    epsilon: await song('Epsilon', three, 'Rock', '2026-06-02T10:00:00.000Z', 16000),
    zeta: await song('Zeta', four, 'Pop', '2026-06-03T10:00:00.000Z', 32000),
  };
  await db.updateTable('songs').set({ library_id: library.id }).where('id', '=', songs.delta).execute();
  await db
    .insertInto('song_artists')
    .values([
      { song_id: songs.beta, artist_id: two, role: 'artist', sub_role: '', position: 1 },
      // A composer is no artist of the song: it takes no listens.
      { song_id: songs.gamma, artist_id: four, role: 'composer', sub_role: '', position: 1 },
    ])
    .execute();
  await moveToPlaceholders(db, Object.values(songs));
  for (const [songId, albumId] of [
    [songs.alpha, first],
    [songs.beta, first],
    [songs.zeta, second],
  ] as const) {
    await db.updateTable('album_tracks').set({ album_id: albumId }).where('song_id', '=', songId).execute();
  }
  const ana = await insertUser({ db }, { username: 'ana' });
  const ben = await insertUser({ db }, { username: 'ben' });
  const listen = (userId: number, songId: number, playedAt: string, seconds: number) => ({
    userId,
    songId,
    playedAt,
    listenedMs: seconds * 1000,
  });
  await insertListens({ db }, [
    listen(ana.id, songs.gamma, '2025-12-31T23:30:00.000Z', 50),
    listen(ana.id, songs.beta, '2026-03-29T00:30:00.000Z', 60),
    listen(ana.id, songs.alpha, '2026-06-01T12:00:00.000Z', 100),
    listen(ana.id, songs.zeta, '2026-06-09T18:00:00.000Z', 90),
    listen(ana.id, songs.gamma, '2026-06-10T12:00:00.000Z', 150),
    listen(ana.id, songs.epsilon, '2026-06-11T12:00:00.000Z', 100),
    listen(ana.id, songs.delta, '2026-06-12T12:00:00.000Z', 180),
    listen(ana.id, songs.beta, '2026-06-13T07:15:00.000Z', 120),
    listen(ana.id, songs.alpha, '2026-06-13T22:30:00.000Z', 100),
    listen(ana.id, songs.alpha, '2026-06-14T20:30:00.000Z', 200),
    listen(ben.id, songs.alpha, '2026-06-14T10:00:00.000Z', 200),
  ]);
  await db.deleteFrom('songs').where('id', '=', songs.epsilon).execute();
  return {
    ana: { ...ana, hiddenLibraries: [library.id] },
    ben: { ...ben, hiddenLibraries: [library.id] },
    songs,
    artists: { one, two, four },
    albums: { first, second },
  };
}

const busy = () => new Error('busy');
const amountOf = (plays: number, seconds: number) => ({ plays, listenedMs: seconds * 1000 });
/** 24 (or 7) empty amounts, with `filled` in their places. */
function series(key: 'hour' | 'weekday', keys: number[], filled: Record<number, [number, number]>) {
  return keys.map((value) => ({ [key]: value, ...amountOf(...(filled[value] ?? [0, 0])) }));
}
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7];

describeEachDialect('listening statistics (%s)', { uses: 'database', fresh: 'each' }, (t) => {
  const service = () =>
    new StatsService(
      createStatsRepository(t.db, t.dialect),
      createServerStatsRepository(t.db, t.dialect),
      new WorkGate(1, 4, busy),
      () => NOW,
    );

  it('sums the last week in Paris: minutes, tops, hours and weekdays, and what was heard first', async () => {
    const f = await seed(t.db);
    const { songs, artists, albums } = f;
    const week = await service().listening(f.ana, 'week', 'Europe/Paris');
    expect(week).toMatchObject({
      period: 'week',
      timeZone: 'Europe/Paris',
      from: '2026-06-08T12:00:00.000Z',
      to: NOW.toISOString(),
      // Zeta 90 + Gamma 150 + Epsilon 100 + Delta 180 + Beta 120 + Alpha 100 + Alpha 200 = 940 s: 15 whole minutes.
      ...amountOf(7, 940),
      minutes: 15,
    });
    expect(week.topSongs).toEqual([
      { songId: songs.alpha, name: 'Alpha', artistName: 'Artist One', ...amountOf(2, 300) },
      { songId: songs.gamma, name: 'Gamma', artistName: 'Artist Two', ...amountOf(1, 150) },
      { songId: songs.beta, name: 'Beta', artistName: 'Artist One', ...amountOf(1, 120) },
      { songId: songs.zeta, name: 'Zeta', artistName: 'Artist Four', ...amountOf(1, 90) },
    ]);
    // Beta counts for both its artists; the hidden Delta and the deleted Epsilon for nobody.
    expect(week.topArtists).toEqual([
      { artistId: artists.one, name: 'Artist One', ...amountOf(3, 420) },
      { artistId: artists.two, name: 'Artist Two', ...amountOf(2, 270) },
      { artistId: artists.four, name: 'Artist Four', ...amountOf(1, 90) },
    ]);
    // Gamma's "Unknown album" is no album.
    expect(week.topAlbums).toEqual([
      { albumId: albums.first, name: 'First', artistName: 'Artist One', ...amountOf(3, 420) },
      { albumId: albums.second, name: 'Second', artistName: 'Artist Four', ...amountOf(1, 90) },
    ]);
    expect(week.topGenres).toEqual([
      { genre: 'Rock', ...amountOf(2, 300) },
      { genre: 'Pop', ...amountOf(2, 210) },
      { genre: 'Jazz', ...amountOf(1, 150) },
    ]);
    // Every listen, in Paris's summer time (UTC+2).
    expect(week.byHour).toEqual(
      series('hour', HOURS, { 0: [1, 100], 9: [1, 120], 14: [3, 430], 20: [1, 90], 22: [1, 200] }),
    );
    expect(week.byWeekday).toEqual(
      series('weekday', WEEKDAYS, { 2: [1, 90], 3: [1, 150], 4: [1, 100], 5: [1, 180], 6: [1, 120], 7: [2, 300] }),
    );
    // Zeta and its artist were first heard this week; the others long before.
    expect(week.discoveries).toEqual({
      songCount: 1,
      artistCount: 1,
      songs: [{ songId: songs.zeta, name: 'Zeta', artistName: 'Artist Four', ...amountOf(1, 90) }],
      artists: [{ artistId: artists.four, name: 'Artist Four', ...amountOf(1, 90) }],
    });
  });

  it('sums the month and all time; a fixed offset shifts the hours', async () => {
    const f = await seed(t.db);
    const month = await service().listening(f.ana, 'month', 'UTC');
    expect(month).toMatchObject({ from: '2026-05-16T12:00:00.000Z', ...amountOf(8, 1040), minutes: 17 });
    expect(month.topSongs.map((song) => [song.songId, song.plays])).toEqual([
      [f.songs.alpha, 3],
      [f.songs.gamma, 1],
      [f.songs.beta, 1],
      [f.songs.zeta, 1],
    ]);
    // Alpha was first heard on 1 June; Artist One in March already (Beta).
    expect(month.discoveries).toMatchObject({
      songCount: 2,
      artistCount: 1,
      songs: [{ songId: f.songs.alpha, ...amountOf(3, 400) }, { songId: f.songs.zeta }],
    });
    expect(month.byHour.filter((hour) => hour.plays > 0).map((hour) => [hour.hour, hour.plays])).toEqual([
      [7, 1],
      [12, 4],
      [18, 1],
      [20, 1],
      [22, 1],
    ]);

    const all = await service().listening(f.ana, 'all', '-03:30');
    expect(all).toMatchObject({ from: null, ...amountOf(10, 1150), minutes: 19 });
    // 23:30 UTC is 20:00 at -03:30; 00:30 UTC is 21:00 the day before.
    expect(all.byHour.find((hour) => hour.hour === 20)).toEqual({ hour: 20, ...amountOf(1, 50) });
    expect(all.byHour.find((hour) => hour.hour === 21)).toEqual({ hour: 21, ...amountOf(1, 60) });
    expect(all.discoveries).toMatchObject({ songCount: 4, artistCount: 3 });
  });

  it('counts the hours of a listen before clocks changed with the offset of its own day', async () => {
    const f = await seed(t.db);
    const all = await service().listening(f.ana, 'all', 'Europe/Paris');
    // 31 Dec 23:30 and 29 Mar 00:30 UTC, both UTC+1: 00:30 (Thursday) and 01:30 (Sunday).
    expect(all.byHour.find((hour) => hour.hour === 0)).toEqual({ hour: 0, ...amountOf(2, 150) });
    expect(all.byHour.find((hour) => hour.hour === 1)).toEqual({ hour: 1, ...amountOf(1, 60) });
    expect(all.byWeekday).toEqual(
      series('weekday', WEEKDAYS, {
        1: [1, 100],
        2: [1, 90],
        3: [1, 150],
        4: [2, 150],
        5: [1, 180],
        6: [1, 120],
        7: [3, 360],
      }),
    );
  });

  it('sums a calendar year in the listener’s time zone, month by month', async () => {
    const f = await seed(t.db);
    const paris = await service().year(f.ana, 2026, 'Europe/Paris');
    // Gamma at 23:30 UTC on 31 December 2025 is already 2026 in Paris.
    expect(paris).toMatchObject({ year: 2026, timeZone: 'Europe/Paris', ...amountOf(10, 1150), minutes: 19 });
    expect(paris.byMonth).toEqual(
      Array.from({ length: 12 }, (_, index) => ({
        month: index + 1,
        ...({ 0: amountOf(1, 50), 2: amountOf(1, 60), 5: amountOf(8, 1040) }[index] ?? amountOf(0, 0)),
      })),
    );
    expect(paris.topArtists.map((artist) => [artist.name, artist.plays, artist.listenedMs])).toEqual([
      ['Artist One', 5, 580_000],
      ['Artist Two', 4, 380_000],
      ['Artist Four', 1, 90_000],
    ]);
    expect(paris.topSongs.map((song) => [song.name, song.plays])).toEqual([
      ['Alpha', 3],
      ['Gamma', 2],
      ['Beta', 2],
      ['Zeta', 1],
    ]);
    expect(paris.topGenres.map((genre) => [genre.genre, genre.plays, genre.listenedMs])).toEqual([
      ['Rock', 3, 400_000],
      ['Pop', 3, 270_000],
      ['Jazz', 2, 200_000],
    ]);
    expect(paris.newArtistCount).toBe(3);

    const utc = await service().year(f.ana, 2026, 'UTC');
    expect(utc).toMatchObject({ ...amountOf(9, 1100), newArtistCount: 2 });
    expect(utc.byMonth[0]).toEqual({ month: 1, ...amountOf(0, 0) });
    const before = await service().year(f.ana, 2025, 'UTC');
    expect(before).toMatchObject({ ...amountOf(1, 50), topSongs: [{ name: 'Gamma' }], newArtistCount: 1 });
    const empty = await service().year(f.ben, 2025, 'UTC');
    expect(empty).toMatchObject({ ...amountOf(0, 0), minutes: 0, topSongs: [], topArtists: [], newArtistCount: 0 });
  });

  it('gives administrators the most played, active listeners per local day, storage and growth', async () => {
    const f = await seed(t.db);
    const week = await service().serverStats(7, 'UTC');
    expect(week.mostPlayed.map((song) => [song.songId, song.plays, song.listeners, song.listenedMs])).toEqual([
      [f.songs.alpha, 3, 2, 500_000],
      // Ties by song: the hidden Delta is no secret to an administrator.
      [f.songs.beta, 1, 1, 120_000],
      [f.songs.gamma, 1, 1, 150_000],
      [f.songs.delta, 1, 1, 180_000],
      [f.songs.zeta, 1, 1, 90_000],
    ]);
    expect(week.activeListeners).toEqual([
      { day: '2026-06-09', listeners: 1, plays: 1 },
      { day: '2026-06-10', listeners: 1, plays: 1 },
      { day: '2026-06-11', listeners: 1, plays: 1 },
      { day: '2026-06-12', listeners: 1, plays: 1 },
      { day: '2026-06-13', listeners: 1, plays: 2 },
      { day: '2026-06-14', listeners: 2, plays: 2 },
      { day: '2026-06-15', listeners: 0, plays: 0 },
    ]);
    // In Paris, Ana's 22:30 UTC listen of the 13th is on the 14th.
    const paris = await service().serverStats(7, 'Europe/Paris');
    expect(paris.activeListeners.slice(4, 6)).toEqual([
      { day: '2026-06-13', listeners: 1, plays: 1 },
      { day: '2026-06-14', listeners: 2, plays: 3 },
    ]);
    // Epsilon is gone: five songs, 47 000 bytes, Delta's 8 000 in a library.
    expect(week.storage).toEqual({
      songs: 5,
      albums: 2,
      artists: 4,
      users: 2,
      listens: 11,
      audioBytes: 47_000,
      storedAudioBytes: 39_000,
      libraryAudioBytes: 8_000,
    });
    expect(week.growth).toEqual([
      { month: '2026-01', songsAdded: 2, bytesAdded: 3000, songs: 2, bytes: 3000 },
      { month: '2026-02', songsAdded: 0, bytesAdded: 0, songs: 2, bytes: 3000 },
      { month: '2026-03', songsAdded: 1, bytesAdded: 4000, songs: 3, bytes: 7000 },
      { month: '2026-04', songsAdded: 0, bytesAdded: 0, songs: 3, bytes: 7000 },
      { month: '2026-05', songsAdded: 0, bytesAdded: 0, songs: 3, bytes: 7000 },
      { month: '2026-06', songsAdded: 2, bytesAdded: 40_000, songs: 5, bytes: 47_000 },
    ]);
  });

  it('answers nothing heard for a listener without listens, and an empty server', async () => {
    const ana = await insertUser(t, { username: 'quiet' });
    const stats = await service().listening({ ...ana, hiddenLibraries: [] }, 'all', 'Asia/Tokyo');
    expect(stats).toMatchObject({ ...amountOf(0, 0), minutes: 0, topSongs: [], topArtists: [], topAlbums: [] });
    expect(stats.byHour.every((hour) => hour.plays === 0)).toBe(true);
    expect(stats.discoveries).toEqual({ songCount: 0, artistCount: 0, songs: [], artists: [] });
    const server = await service().serverStats(3, 'UTC');
    expect(server).toMatchObject({ mostPlayed: [], growth: [], storage: { songs: 0, audioBytes: 0, users: 1 } });
    expect(server.activeListeners.map((day) => day.day)).toEqual(['2026-06-13', '2026-06-14', '2026-06-15']);
  });
});

describe('statistics fixture', () => {
  it('is the history the comments above describe', () => {
    expect(NOW.getUTCDay()).toBe(1);
  });
});
