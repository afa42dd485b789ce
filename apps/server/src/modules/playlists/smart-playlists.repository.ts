import type {
  SmartDateRule,
  SmartDefinition,
  SmartGroup,
  SmartNumberRule,
  SmartRule,
  SmartTextRule,
} from '@tonearm/contract';
import { SMART_LIMIT_SONGS_MAX } from '@tonearm/contract';
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { songSeen } from '../../db/library-visibility.js';
import type { DB, RoleValue } from '../../db/schema.js';

/**
 * Smart playlists (issue 28): a definition's rules compiled to one SQL condition over `songs`. Every value the user
 * typed travels as a parameter (Kysely's `sql` template); only column names and operators chosen from fixed lists are
 * written into the text. Text matches are case-insensitive (`lower()` on both sides, as the catalogue's search does).
 */

/** Whose rating, likes and listens the rules read (the owner's, also when the playlist is shared), and what is hidden. */
export interface SmartViewer {
  userId: number;
  hidden: readonly number[];
}

type Condition = RawBuilder<SqlBool>;
type Value = RawBuilder<unknown>;

const NUMBER_SQL = { eq: sql`=`, ne: sql`<>`, lt: sql`<`, lte: sql`<=`, gt: sql`>`, gte: sql`>=` } as const;
const DAY_MS = 86_400_000;

function likeEscaped(text: string): string {
  return text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The per-song value of a number or date field, as the viewer sees it. */
function valueOf(field: string, viewer: SmartViewer): Value {
  switch (field) {
    case 'year':
      return sql`songs.year`;
    case 'rating':
      return sql`coalesce(viewer_ratings.rating, 0)`;
    case 'playCount':
      return sql`coalesce(viewer_listens.plays, 0)`;
    case 'duration':
      return sql`(songs.duration_ms / 1000)`;
    case 'bitrate':
      return sql`songs.bitrate_kbps`;
    case 'library':
      return sql`songs.library_id`;
    case 'lastPlayed':
      return sql`viewer_listens.last_played`;
    case 'dateAdded':
      return sql`songs.created_at`;
    case 'liked':
      return sql`(case when exists (select 1 from likes k where k.song_id = songs.id and k.user_id = ${viewer.userId}) then 1 else 0 end)`;
    case 'genre':
      return sql`lower(songs.genre)`;
    case 'format':
      return sql`lower(songs.format)`;
    case 'album':
      return sql`(select lower(min(a.name)) from album_tracks t inner join albums a on a.id = t.album_id where t.song_id = songs.id)`;
    default:
      return sql`(select lower(min(a.name)) from artists a where a.id = songs.artist_id)`;
  }
}

/** `lower(column) <op> value` for one text column. */
function textMatch(column: Value, rule: SmartTextRule): Condition {
  const text = rule.value.trim();
  if (rule.op === 'contains') return sql<SqlBool>`lower(${column}) like ${`%${likeEscaped(text)}%`} escape '\\'`;
  if (rule.op === 'startsWith') return sql<SqlBool>`lower(${column}) like ${`${likeEscaped(text)}%`} escape '\\'`;
  return sql<SqlBool>`lower(${column}) = ${text.toLowerCase()}`;
}

/** Artist and album are many to one song: a song matches when any of its credited artists (or albums) does. */
function anyOf(field: 'artist' | 'album', rule: SmartTextRule): Condition {
  const positive = { ...rule, op: rule.op === 'isNot' ? 'is' : rule.op } as SmartTextRule;
  const exists =
    field === 'artist'
      ? sql<SqlBool>`(exists (select 1 from song_artists c inner join artists a on a.id = c.artist_id
          where c.song_id = songs.id and ${textMatch(sql`a.name`, positive)})
        or exists (select 1 from artists a where a.id = songs.artist_id and ${textMatch(sql`a.name`, positive)}))`
      : sql<SqlBool>`exists (select 1 from album_tracks t inner join albums a on a.id = t.album_id
          where t.song_id = songs.id and ${textMatch(sql`a.name`, positive)})`;
  return rule.op === 'isNot' ? sql<SqlBool>`not ${exists}` : exists;
}

function textCondition(rule: SmartTextRule): Condition {
  if (rule.field === 'artist' || rule.field === 'album') return anyOf(rule.field, rule);
  const column = rule.field === 'genre' ? sql`songs.genre` : sql`songs.format`;
  const match = textMatch(column, { ...rule, op: rule.op === 'isNot' ? 'is' : rule.op });
  // A song with no format is "not mp3" too: null never equals the text.
  return rule.op === 'isNot' ? sql<SqlBool>`(${column} is null or not ${match})` : match;
}

function numberCondition(rule: SmartNumberRule, viewer: SmartViewer): Condition {
  const value = valueOf(rule.field, viewer);
  if (rule.op === 'between') return sql<SqlBool>`(${value} between ${rule.value[0]} and ${rule.value[1]})`;
  // "is not" keeps songs without the value (no year is not 1999), as people read it.
  if (rule.op === 'ne') return sql<SqlBool>`(${value} is null or ${value} <> ${rule.value})`;
  return sql<SqlBool>`${value} ${NUMBER_SQL[rule.op]} ${rule.value}`;
}

/** Dates are ISO texts, compared as text: "before D" is before D's first instant, "after D" after its last. */
function dateCondition(rule: SmartDateRule, viewer: SmartViewer, now: Date): Condition {
  const value = valueOf(rule.field, viewer);
  if (rule.op === 'inTheLast')
    return sql<SqlBool>`${value} >= ${new Date(now.getTime() - rule.value * DAY_MS).toISOString()}`;
  const start = new Date(`${rule.value}T00:00:00.000Z`);
  if (rule.op === 'before') return sql<SqlBool>`${value} < ${start.toISOString()}`;
  return sql<SqlBool>`${value} >= ${new Date(start.getTime() + DAY_MS).toISOString()}`;
}

function ruleCondition(rule: SmartRule, viewer: SmartViewer, now: Date): Condition {
  if (rule.field === 'liked') return sql<SqlBool>`${valueOf('liked', viewer)} = ${rule.op === 'isTrue' ? 1 : 0}`;
  if (rule.field === 'lastPlayed' || rule.field === 'dateAdded') return dateCondition(rule, viewer, now);
  if (['genre', 'artist', 'album', 'format'].includes(rule.field)) return textCondition(rule as SmartTextRule);
  return numberCondition(rule as SmartNumberRule, viewer);
}

export function groupCondition(group: SmartGroup, viewer: SmartViewer, now: Date): Condition {
  const parts = group.rules.map((child) =>
    'rules' in child ? groupCondition(child, viewer, now) : ruleCondition(child, viewer, now),
  );
  return sql<SqlBool>`(${sql.join(parts, group.match === 'all' ? sql` and ` : sql` or `)})`;
}

function orderOf(definition: SmartDefinition, viewer: SmartViewer): RawBuilder<unknown> {
  const { field, direction } = definition.sort;
  if (field === 'random') return sql`random()`;
  const way = direction === 'asc' ? sql`asc` : sql`desc`;
  // Songs without the value go last either way; the id keeps equal values in a stable order.
  return sql`case when ${valueOf(field, viewer)} is null then 1 else 0 end, ${valueOf(field, viewer)} ${way}, songs.id ${way}`;
}

/** A song a definition chose: its id and length (a preview adds them up). */
export interface ChosenSong {
  id: number;
  duration_ms: number | null;
}

/** The ids of the songs a definition chooses for the viewer, in its order and within its limit. */
export async function smartSongIds(
  db: Kysely<DB>,
  definition: SmartDefinition,
  viewer: SmartViewer,
  now = new Date(),
): Promise<number[]> {
  return (await smartSongs(db, definition, viewer, now)).map((song) => song.id);
}

/** The songs a definition chooses for the viewer, in its order and within its limit. */
export async function smartSongs(
  db: Kysely<DB>,
  definition: SmartDefinition,
  viewer: SmartViewer,
  now = new Date(),
): Promise<ChosenSong[]> {
  const limit = definition.limit?.kind === 'songs' ? definition.limit.value : SMART_LIMIT_SONGS_MAX;
  const seen = viewer.hidden.length > 0 ? songSeen(viewer.hidden) : sql<SqlBool>`1 = 1`;
  const rows = await db
    .selectFrom('songs')
    // The viewer's plays and ratings, read once and joined, not asked song by song: at 100 000 songs a correlated
    // subquery a song took 5 s on SQLite, the join tens of milliseconds.
    .leftJoin(
      (qb) =>
        qb
          .selectFrom('listens')
          .select((eb) => [
            'listens.song_id',
            eb.fn.countAll<number>().as('plays'),
            eb.fn.max('listens.played_at').as('last_played'),
          ])
          .where('listens.user_id', '=', viewer.userId)
          .groupBy('listens.song_id')
          .as('viewer_listens'),
      (join) => join.onRef('viewer_listens.song_id', '=', 'songs.id'),
    )
    .leftJoin(
      (qb) =>
        qb
          .selectFrom('song_ratings')
          .select(['song_ratings.song_id', 'song_ratings.rating'])
          .where('song_ratings.user_id', '=', viewer.userId)
          .as('viewer_ratings'),
      (join) => join.onRef('viewer_ratings.song_id', '=', 'songs.id'),
    )
    .select(['songs.id', 'songs.duration_ms'])
    .where('songs.missing_since', 'is', null)
    .where(seen)
    .where(groupCondition(definition.rules, viewer, now))
    .orderBy(orderOf(definition, viewer))
    .limit(limit)
    .execute();
  if (definition.limit?.kind !== 'minutes') return rows;
  return withinMinutes(rows, definition.limit.value);
}

/** The first songs whose durations add up to at most `minutes` (a song without a duration counts as none). */
function withinMinutes(rows: ChosenSong[], minutes: number): ChosenSong[] {
  const chosen: ChosenSong[] = [];
  let total = 0;
  for (const row of rows) {
    total += row.duration_ms ?? 0;
    if (total > minutes * 60_000) break;
    chosen.push(row);
  }
  return chosen;
}

/** A smart playlist as its refresh needs it: its rules and its owner (whose libraries bound what it may choose). */
export interface SmartPlaylistRow {
  id: number;
  smart_rules: string;
  owner_id: number;
  owner_role: RoleValue;
}

/** The reads of smart playlists; their songs are written by the playlists repository (replaceSmartSongs). */
export interface SmartPlaylistsRepository {
  choose(definition: SmartDefinition, viewer: SmartViewer, now?: Date): Promise<ChosenSong[]>;
  /** Those of `ids` that are smart playlists. */
  smartOf(ids: readonly number[]): Promise<SmartPlaylistRow[]>;
}

export function createSmartPlaylistsRepository(db: Kysely<DB>): SmartPlaylistsRepository {
  return {
    choose: (definition, viewer, now) => smartSongs(db, definition, viewer, now),
    async smartOf(ids) {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('playlists')
        .innerJoin('users', 'users.id', 'playlists.owner_id')
        .select(['playlists.id', 'playlists.smart_rules', 'playlists.owner_id', 'users.role as owner_role'])
        .where('playlists.id', 'in', [...new Set(ids)])
        .where('playlists.smart_rules', 'is not', null)
        .execute();
      return rows.flatMap((row) => (row.smart_rules === null ? [] : [{ ...row, smart_rules: row.smart_rules }]));
    },
  };
}
