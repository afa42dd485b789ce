import { DEFAULT_MIGRATION_TABLE, sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** What a backup or a restore asks the database itself (the rows are read by BlobReferencesRepository). */
export interface BackupRepository {
  /** The names of the applied migrations, in order; none when the database was never migrated. */
  appliedMigrations(): Promise<string[]>;
  /** Every table of the database, Kysely's own included: none means an empty database to restore into. */
  tableNames(): Promise<string[]>;
}

export function createBackupRepository(db: Kysely<DB>): BackupRepository {
  async function tableNames(): Promise<string[]> {
    const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
    return tables.map((table) => table.name);
  }
  return {
    async appliedMigrations() {
      if (!(await tableNames()).includes(DEFAULT_MIGRATION_TABLE)) return [];
      const rows = await sql<{
        name: string;
      }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)} order by name`.execute(db);
      return rows.rows.map((row) => row.name);
    },
    tableNames,
  };
}
