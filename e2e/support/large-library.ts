import pg from 'pg';
import { findPostgresBin, startThrowawayPostgres } from '../../apps/server/test/postgres-server.js';
import { seedSyntheticLibraryAt, type SyntheticLibrarySummary } from '../../apps/server/src/demo/synthetic-library.js';
import { importLibraryAt, type FolderWriter } from './imported-library.js';

/** Where a spec's server keeps its catalogue. */
export type E2eDatabase = 'sqlite' | 'postgres';

export interface LibraryOptions {
  /** Songs seeded straight into the database, over songs / 20 artists (apps/server/src/demo/synthetic-library.ts). */
  songs: number;
  /** Default SQLite in the server's DATA_DIR; PostgreSQL is a throwaway cluster of the spec's own. */
  database?: E2eDatabase;
  /** Files written to a folder and imported with `npm run import`'s code after the seed (issue 12). */
  imported?: FolderWriter;
}

/** What a server started on a seeded library gets: its environment, and what to remove once it has stopped. */
export interface PreparedLibrary {
  env: Record<string, string>;
  seeded: SyntheticLibrarySummary;
  dispose(): Promise<void>;
}

/**
 * Why PostgreSQL cannot be used here, or null when it can: the e2e suite starts its own cluster from the installed
 * server binaries. The spec fails with this reason rather than skipping.
 */
export function postgresMissing(): string | null {
  if (findPostgresBin() !== null) return null;
  return 'PostgreSQL server binaries are not installed (/usr/lib/postgresql/*/bin)';
}

async function createDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Seeds a library into the DATA_DIR a server is about to start on (and, for PostgreSQL, into a database of a throwaway
 * cluster started for it): `songs` songs, songs / 20 artists, and a few real audio files and covers shared by the rows
 * (each row has its own audio_sha256, which is unique; audio_key is not), so every song lists, searches and plays. The
 * search index fills itself through the database's triggers.
 */
export async function prepareLibrary(dataDir: string, options: LibraryOptions): Promise<PreparedLibrary> {
  if (options.database !== 'postgres') {
    const seeded = await seedSyntheticLibraryAt({ dataDir }, { songs: options.songs, media: true });
    if (options.imported !== undefined) await importLibraryAt({ dataDir }, options.imported);
    return { env: {}, seeded, dispose: () => Promise.resolve() };
  }
  const postgres = await startThrowawayPostgres();
  try {
    const databaseUrl = await createDatabase(postgres.adminUrl, 'tonearm_e2e');
    const seeded = await seedSyntheticLibraryAt({ dataDir, databaseUrl }, { songs: options.songs, media: true });
    if (options.imported !== undefined) await importLibraryAt({ dataDir, databaseUrl }, options.imported);
    return { env: { DATABASE_URL: databaseUrl }, seeded, dispose: () => postgres.stop() };
  } catch (error) {
    await postgres.stop();
    throw error;
  }
}
