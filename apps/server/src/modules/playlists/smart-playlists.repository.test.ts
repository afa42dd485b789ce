import type { SmartDefinition, SmartGroup, SmartRule } from '@tonearm/contract';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { smartSongIds } from './smart-playlists.repository.js';

const NOW = new Date('2026-06-15T12:00:00.000Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();

interface Song {
  name: string;
  genre: string;
  artist: string;
  featuring?: string;
  album: string;
  year: number | null;
  durationS: number;
  format: string | null;
  bitrate: number | null;
  addedDaysAgo: number;
  hidden?: boolean;
  missing?: boolean;
}

/** Hand-built songs: each rule below is checked against the names it must answer. */
const SONGS: Song[] = [
  {
    name: 'A',
    genre: 'Rock',
    artist: 'The Beatles',
    album: 'Abbey Road',
    year: 1969,
    durationS: 180,
    format: 'MP3',
    bitrate: 320,
    addedDaysAgo: 1,
  },
  {
    name: 'B',
    genre: 'rock',
    artist: 'Queen',
    featuring: 'David Bowie',
    album: 'Hot Space',
    year: 1982,
    durationS: 240,
    format: 'flac',
    bitrate: 900,
    addedDaysAgo: 10,
  },
  {
    name: 'C',
    genre: 'Jazz',
    artist: 'Miles 100%_Davis',
    album: 'Kind of Blue',
    year: null,
    durationS: 600,
    format: null,
    bitrate: null,
    addedDaysAgo: 100,
  },
  {
    name: 'D',
    genre: 'Pop',
    artist: 'Hidden Artist',
    album: 'Secret',
    year: 2000,
    durationS: 200,
    format: 'mp3',
    bitrate: 128,
    addedDaysAgo: 2,
    hidden: true,
  },
  {
    name: 'E',
    genre: 'Rock',
    artist: 'Gone',
    album: 'Gone',
    year: 1970,
    durationS: 200,
    format: 'mp3',
    bitrate: 128,
    addedDaysAgo: 2,
    missing: true,
  },
];

const rule = (r: object) => r as SmartRule;
const all = (...rules: (SmartRule | SmartGroup)[]): SmartGroup => ({ match: 'all', rules });
const any = (...rules: (SmartRule | SmartGroup)[]): SmartGroup => ({ match: 'any', rules });
const definition = (rules: SmartGroup, extra: Partial<SmartDefinition> = {}): SmartDefinition => ({
  rules,
  sort: { field: 'year', direction: 'asc' },
  limit: null,
  ...extra,
});

describeEachDialect('smart playlist rules (%s)', { uses: 'database', fresh: 'each' }, (t) => {
  async function build() {
    const now = NOW.toISOString();
    const user = await t.db
      .insertInto('users')
      .values({ username: 'smart', email: 'smart@example.com', password_hash: 'x', role: 'USER', created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const other = await t.db
      .insertInto('users')
      .values({ username: 'other', email: 'other@example.com', password_hash: 'x', role: 'USER', created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const library = await t.db
      .insertInto('libraries')
      .values({ name: 'Private', path: '/private', created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ids: Record<string, number> = {};
    for (const song of SONGS) {
      const artist = await t.db
        .insertInto('artists')
        .values({ name: song.artist })
        .returning('id')
        .executeTakeFirstOrThrow();
      const row = await t.db
        .insertInto('songs')
        .values({
          name: song.name,
          genre: song.genre,
          artist_id: artist.id,
          audio_key: `${song.name}.key`,
          audio_sha256: `${song.name}-sha`,
          mime: 'audio/mpeg',
          size_bytes: 1,
          duration_ms: song.durationS * 1000,
          image_key: null,
          created_at: daysAgo(song.addedDaysAgo),
          year: song.year,
          format: song.format,
          bitrate_kbps: song.bitrate,
          library_id: song.hidden === true ? library.id : null,
          missing_since: song.missing === true ? now : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids[song.name] = row.id;
      const album = await t.db
        .insertInto('albums')
        .values({ name: song.album, artist_id: artist.id, year: song.year, image_key: null, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await t.db
        .insertInto('album_tracks')
        .values({ song_id: row.id, album_id: album.id, disc_number: 1, track_number: 1 })
        .execute();
      if (song.featuring !== undefined) {
        const guest = await t.db
          .insertInto('artists')
          .values({ name: song.featuring })
          .returning('id')
          .executeTakeFirstOrThrow();
        await t.db
          .insertInto('song_artists')
          .values({ song_id: row.id, artist_id: guest.id, role: 'artist', sub_role: '', position: 1 })
          .execute();
      }
    }
    const id = (name: string) => ids[name] ?? 0;
    await t.db
      .insertInto('song_ratings')
      .values([
        { user_id: user.id, song_id: id('A'), rating: 5, updated_at: now },
        { user_id: user.id, song_id: id('B'), rating: 2, updated_at: now },
        { user_id: other.id, song_id: id('C'), rating: 5, updated_at: now },
      ])
      .execute();
    const listen = (userId: number, name: string, days: number) => ({
      user_id: userId,
      song_id: id(name),
      played_at: daysAgo(days),
      listened_ms: 1000,
      source: 'web' as const,
      client: null,
    });
    await t.db
      .insertInto('listens')
      .values([listen(user.id, 'A', 3), listen(user.id, 'A', 40), listen(user.id, 'B', 50), listen(other.id, 'C', 1)])
      .execute();
    await t.db
      .insertInto('likes')
      .values({ user_id: user.id, song_id: id('B'), created_at: now })
      .execute();
    const names = Object.fromEntries(Object.entries(ids).map(([name, songId]) => [songId, name]));
    const run = async (def: SmartDefinition, hidden: number[] = [library.id]) =>
      (await smartSongIds(t.db, def, { userId: user.id, hidden }, NOW)).map((songId) => names[songId]);
    const match = (r: object) => run(definition(all(rule(r))));
    return { run, match, library };
  }

  it('matches text case-insensitively: is, is not, contains, starts with; any credited artist; album; format', async () => {
    const { match } = await build();
    expect(await match({ field: 'genre', op: 'is', value: 'ROCK' })).toEqual(['A', 'B']);
    expect(await match({ field: 'genre', op: 'isNot', value: 'rock' })).toEqual(['C']);
    expect(await match({ field: 'genre', op: 'contains', value: 'az' })).toEqual(['C']);
    expect(await match({ field: 'genre', op: 'startsWith', value: 'Ro' })).toEqual(['A', 'B']);
    expect(await match({ field: 'artist', op: 'is', value: 'david bowie' })).toEqual(['B']);
    expect(await match({ field: 'artist', op: 'contains', value: 'queen' })).toEqual(['B']);
    expect(await match({ field: 'artist', op: 'isNot', value: 'David Bowie' })).toEqual(['A', 'C']);
    expect(await match({ field: 'artist', op: 'contains', value: '100%_' })).toEqual(['C']);
    expect(await match({ field: 'artist', op: 'contains', value: '0%D' })).toEqual([]);
    expect(await match({ field: 'album', op: 'startsWith', value: 'abbey' })).toEqual(['A']);
    expect(await match({ field: 'format', op: 'is', value: 'mp3' })).toEqual(['A']);
    expect(await match({ field: 'format', op: 'isNot', value: 'mp3' })).toEqual(['B', 'C']);
  });

  it('compares numbers: =, ≠, <, ≤, >, ≥, between; year, duration, bitrate, library', async () => {
    const { match, run, library } = await build();
    expect(await match({ field: 'year', op: 'eq', value: 1969 })).toEqual(['A']);
    expect(await match({ field: 'year', op: 'ne', value: 1969 })).toEqual(['B', 'C']);
    expect(await match({ field: 'year', op: 'lt', value: 1982 })).toEqual(['A']);
    expect(await match({ field: 'year', op: 'lte', value: 1982 })).toEqual(['A', 'B']);
    expect(await match({ field: 'year', op: 'gt', value: 1969 })).toEqual(['B']);
    expect(await match({ field: 'year', op: 'gte', value: 1969 })).toEqual(['A', 'B']);
    expect(await match({ field: 'year', op: 'between', value: [1960, 1970] })).toEqual(['A']);
    expect(await match({ field: 'duration', op: 'gt', value: 200 })).toEqual(['B', 'C']);
    expect(await match({ field: 'bitrate', op: 'gte', value: 320 })).toEqual(['A', 'B']);
    expect(await match({ field: 'library', op: 'eq', value: library.id })).toEqual([]);
    const withLibrary = definition(all(rule({ field: 'library', op: 'eq', value: library.id })));
    expect(await run(withLibrary, [])).toEqual(['D']);
  });

  it("reads the viewer's ratings (unrated is 0), play counts, last played and likes", async () => {
    const { match } = await build();
    expect(await match({ field: 'rating', op: 'gte', value: 4 })).toEqual(['A']);
    expect(await match({ field: 'rating', op: 'eq', value: 0 })).toEqual(['C']);
    expect(await match({ field: 'playCount', op: 'eq', value: 2 })).toEqual(['A']);
    expect(await match({ field: 'playCount', op: 'eq', value: 0 })).toEqual(['C']);
    expect(await match({ field: 'lastPlayed', op: 'inTheLast', value: 7 })).toEqual(['A']);
    expect(await match({ field: 'lastPlayed', op: 'before', value: daysAgo(45).slice(0, 10) })).toEqual(['B']);
    expect(await match({ field: 'lastPlayed', op: 'after', value: daysAgo(10).slice(0, 10) })).toEqual(['A']);
    expect(await match({ field: 'dateAdded', op: 'inTheLast', value: 5 })).toEqual(['A']);
    expect(await match({ field: 'liked', op: 'isTrue' })).toEqual(['B']);
    expect(await match({ field: 'liked', op: 'isFalse' })).toEqual(['A', 'C']);
  });

  it('combines all and any with nesting, sorts, and limits by songs or minutes, never a hidden or missing song', async () => {
    const { run } = await build();
    const rock = rule({ field: 'genre', op: 'is', value: 'rock' });
    const jazz = rule({ field: 'genre', op: 'is', value: 'jazz' });
    const liked = rule({ field: 'liked', op: 'isTrue' });
    expect(await run(definition(any(rock, jazz)))).toEqual(['A', 'B', 'C']);
    expect(await run(definition(all(any(rock, jazz), liked)))).toEqual(['B']);
    const every = any(rock, jazz, rule({ field: 'genre', op: 'is', value: 'pop' }));
    expect(await run(definition(every, { sort: { field: 'year', direction: 'desc' } }))).toEqual(['B', 'A', 'C']);
    expect(await run(definition(every, { sort: { field: 'duration', direction: 'desc' } }))).toEqual(['C', 'B', 'A']);
    expect(await run(definition(every, { sort: { field: 'artist', direction: 'asc' } }))).toEqual(['C', 'B', 'A']);
    expect(await run(definition(every, { limit: { kind: 'songs', value: 2 } }))).toEqual(['A', 'B']);
    expect(await run(definition(every, { limit: { kind: 'minutes', value: 7 } }))).toEqual(['A', 'B']);
    expect((await run(definition(every, { sort: { field: 'random', direction: 'asc' } }))).sort()).toEqual([
      'A',
      'B',
      'C',
    ]);
  });
});
