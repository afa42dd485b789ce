import { sql, type Expression, type SqlBool } from 'kysely';

/**
 * The condition that a song is not in one of the `hidden` libraries (issue 25: what a user may not see): songs held in
 * the blob store (no library) always pass. Give it a non-empty list; with none, add no condition at all.
 */
export function songSeen(hidden: readonly number[], column = 'songs.library_id'): Expression<SqlBool> {
  const ref = sql.ref(column);
  return sql<SqlBool>`(${ref} is null or ${ref} not in (${sql.join([...hidden])}))`;
}

/** Whether a song of this library (null: the blob store's) is seen by whoever has these `hidden` libraries. */
export function seesLibrary(hidden: readonly number[], libraryId: number | null): boolean {
  return libraryId === null || !hidden.includes(libraryId);
}

/**
 * What a list reads from (issue 25): the songs not in the `hidden` libraries and, when `library` is given, only those of
 * one library (its id) or only those held in the blob store (null): Subsonic's `musicFolderId`.
 */
export interface SongScope {
  hidden: readonly number[];
  library?: number | null | undefined;
}

/** The condition that a song is in the scope, or null when the scope narrows nothing. */
export function songInScope(scope: SongScope, column = 'songs.library_id'): Expression<SqlBool> | null {
  const conditions: Expression<SqlBool>[] = [];
  if (scope.hidden.length > 0) conditions.push(songSeen(scope.hidden, column));
  if (scope.library === null) conditions.push(sql<SqlBool>`${sql.ref(column)} is null`);
  else if (scope.library !== undefined) conditions.push(sql<SqlBool>`${sql.ref(column)} = ${scope.library}`);
  if (conditions.length === 0) return null;
  return conditions.length === 1 ? (conditions[0] ?? null) : sql<SqlBool>`(${sql.join(conditions, sql` and `)})`;
}

/**
 * Whether an item whose songs are chosen by `songsWhere` (an EXISTS over its songs narrowed by a condition) is in the
 * scope: with a folder, it has a song there (and seen); with hidden libraries only, it has a song seen, or none in the
 * hidden libraries (an empty album or an artist with no song, made by an administrator, stays), as the web's rules
 * (albums.repository.ts, artists.repository.ts). Null when the scope narrows nothing.
 */
export function itemInScope(
  scope: SongScope,
  songsWhere: (condition: Expression<SqlBool>) => Expression<SqlBool>,
): Expression<SqlBool> | null {
  const inScope = songInScope(scope);
  if (inScope === null) return null;
  if (scope.library !== undefined) return songsWhere(inScope);
  const inHidden = sql<SqlBool>`songs.library_id in (${sql.join([...scope.hidden])})`;
  return sql<SqlBool>`(${songsWhere(inScope)} or not ${songsWhere(inHidden)})`;
}

/** Whether the album (`albumRef`: its id column, of no `songs` row) is in the scope (itemInScope over its tracks); null: no condition. */
export function albumInScope(scope: SongScope, albumRef = 'albums.id'): Expression<SqlBool> | null {
  return itemInScope(
    scope,
    (condition) =>
      sql<SqlBool>`exists (select 1 from album_tracks scope_tracks inner join songs on songs.id = scope_tracks.song_id
        where scope_tracks.album_id = ${sql.ref(albumRef)} and ${condition})`,
  );
}

/**
 * Whether the artist (`artistRef`: its id column, of no `songs` row) is in the scope (itemInScope), its songs being those it is the main
 * artist of, those it is credited on (any role), and those of the albums it is the album artist of. Null: no condition.
 */
export function artistInScope(scope: SongScope, artistRef = 'artists.id'): Expression<SqlBool> | null {
  const artist = sql.ref(artistRef);
  return itemInScope(
    scope,
    (condition) => sql<SqlBool>`(exists (select 1 from songs where songs.artist_id = ${artist} and ${condition})
      or exists (select 1 from song_artists scope_credits inner join songs on songs.id = scope_credits.song_id
        where scope_credits.artist_id = ${artist} and ${condition})
      or exists (select 1 from albums scope_albums inner join album_tracks scope_tracks
        on scope_tracks.album_id = scope_albums.id inner join songs on songs.id = scope_tracks.song_id
        where scope_albums.artist_id = ${artist} and ${condition}))`,
  );
}

/** The query with `condition` added, when there is one (a scope that narrows nothing adds none). */
export function narrowedTo<Q extends { where(condition: Expression<SqlBool>): Q }>(
  query: Q,
  condition: Expression<SqlBool> | null,
): Q {
  return condition === null ? query : query.where(condition);
}
