import type { PlaylistVisibility } from '@tonearm/contract';
import { sql, type RawBuilder, type SqlBool } from 'kysely';

/**
 * The access policy's playlist visibility (contract `visiblePlaylists`) as one SQL condition on a playlists table or
 * alias, for every query that lists playlists (lists, search): the one place the rule is written in SQL.
 */
export function playlistVisibleTo(visible: PlaylistVisibility, table: string): RawBuilder<SqlBool> {
  if (visible.kind === 'all') return sql<SqlBool>`1 = 1`;
  return sql<SqlBool>`(${sql.ref(`${table}.is_public`)} = 1 or ${sql.ref(`${table}.owner_id`)} = ${visible.userId})`;
}
