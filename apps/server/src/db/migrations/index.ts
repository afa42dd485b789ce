import { inspect } from 'node:util';
import { Migrator, type Kysely, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import { initialMigration } from './001-initial.js';
import { searchMigration } from './002-search.js';
import { limitsMigration } from './003-limits.js';
import { pagingMigration } from './004-paging.js';
import { searchAtScaleMigration } from './005-search.js';
import { albumsMigration } from './006-albums.js';
import { importSourcesMigration } from './007-import-sources.js';
import { albumsRecentMigration } from './008-albums-recent.js';
import { searchGenreTagsMigration } from './009-search-genre-tags.js';
import { subsonicApiKeysMigration } from './010-subsonic-api-keys.js';
import { subsonicStarsMigration } from './011-subsonic-stars.js';
import { subsonicActivityMigration } from './012-subsonic-activity.js';
import { sharedLimitsMigration } from './013-shared-limits.js';
import { albumNameTrigramMigration } from './014-album-name-trigram.js';
import { albumNameIndexSqliteMigration } from './015-album-name-index-sqlite.js';
import { catalogueRowsVersionMigration } from './016-catalogue-rows-version.js';
import { librariesMigration } from './017-libraries.js';
import { albumPlaceholdersMigration } from './018-album-placeholders.js';
import { creditsMigration } from './019-credits.js';
import { libraryAccessMigration } from './020-library-access.js';
import { libraryPlaylistsMigration } from './021-library-playlists.js';
import { songSortIndexesMigration } from './022-song-sort-indexes.js';
import { songPlayCountsMigration } from './023-song-play-counts.js';
import { lyricsMigration } from './024-lyrics.js';
import { subsonicBookmarksMigration } from './025-subsonic-bookmarks.js';
import { devicesMigration } from './026-devices.js';
import { discoveryMigration } from './027-discovery.js';
import { scrobblingMigration } from './030-scrobbling.js';
import { smartPlaylistsMigration } from './031-smart-playlists.js';
import { listeningStatsMigration } from './032-listening-stats.js';
import { songFeaturesAudioMigration } from './033-song-features-audio.js';
import { radioIndexesMigration } from './034-radio-indexes.js';

/**
 * Every migration, in order. Listed statically (no directory globbing) so the set is the same under tsx, a bundle and
 * tests. Append new migrations with the next number; never edit one that has shipped.
 */
export const migrations: Record<string, Migration> = {
  '001-initial': initialMigration,
  '002-search': searchMigration,
  '003-limits': limitsMigration,
  '004-paging': pagingMigration,
  '005-search': searchAtScaleMigration,
  '006-albums': albumsMigration,
  '007-import-sources': importSourcesMigration,
  '008-albums-recent': albumsRecentMigration,
  '009-search-genre-tags': searchGenreTagsMigration,
  '010-subsonic-api-keys': subsonicApiKeysMigration,
  '011-subsonic-stars': subsonicStarsMigration,
  '012-subsonic-activity': subsonicActivityMigration,
  '013-shared-limits': sharedLimitsMigration,
  '014-album-name-trigram': albumNameTrigramMigration,
  '015-album-name-index-sqlite': albumNameIndexSqliteMigration,
  '016-catalogue-rows-version': catalogueRowsVersionMigration,
  '017-libraries': librariesMigration,
  '018-album-placeholders': albumPlaceholdersMigration,
  '019-credits': creditsMigration,
  '020-library-access': libraryAccessMigration,
  '021-library-playlists': libraryPlaylistsMigration,
  '022-song-sort-indexes': songSortIndexesMigration,
  '023-song-play-counts': songPlayCountsMigration,
  '024-lyrics': lyricsMigration,
  '025-subsonic-bookmarks': subsonicBookmarksMigration,
  '026-devices': devicesMigration,
  '027-discovery': discoveryMigration,
  '030-scrobbling': scrobblingMigration,
  '031-smart-playlists': smartPlaylistsMigration,
  '032-listening-stats': listeningStatsMigration,
  '033-song-features-audio': songFeaturesAudioMigration,
  '034-radio-indexes': radioIndexesMigration,
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations) };

function migrator<T>(db: Kysely<T>): Migrator {
  return new Migrator({ db, provider });
}

function unwrap(result: MigrationResultSet): string[] {
  if (result.error !== undefined) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const reason = result.error instanceof Error ? result.error.message : inspect(result.error);
    throw new Error(`Migration ${failed?.migrationName ?? '(setup)'} failed: ${reason}`, { cause: result.error });
  }
  return (result.results ?? []).map((r) => r.migrationName);
}

/** Applies every pending migration; returns the names applied. */
export async function migrateToLatest<T>(db: Kysely<T>): Promise<string[]> {
  return unwrap(await migrator(db).migrateToLatest());
}

/** The names of the migrations already applied, in order. */
export async function appliedMigrations<T>(db: Kysely<T>): Promise<string[]> {
  const all = await migrator(db).getMigrations();
  return all.filter((migration) => migration.executedAt !== undefined).map((migration) => migration.name);
}

/** Applies the pending migrations up to and including `name`; never reverts one. Returns the names applied. */
export async function migrateUpTo<T>(db: Kysely<T>, name: string): Promise<string[]> {
  if ((await appliedMigrations(db)).includes(name)) return [];
  return unwrap(await migrator(db).migrateTo(name));
}

/** Reverts the most recent migration; returns the names reverted. */
export async function migrateDown<T>(db: Kysely<T>): Promise<string[]> {
  return unwrap(await migrator(db).migrateDown());
}
