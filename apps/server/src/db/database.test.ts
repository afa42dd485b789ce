import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { createDatabase } from './database.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'tonearm-database-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('opens SQLite in WAL mode, with foreign keys on, NORMAL syncs and a 32 MiB page cache', async () => {
  const database = createDatabase({ dataDir, databaseUrl: null });
  try {
    const read = async (pragma: string) =>
      Object.values((await sql.raw(`pragma ${pragma}`).execute(database.db)).rows[0] as object)[0] as unknown;
    expect(await read('journal_mode')).toBe('wal');
    expect(await read('foreign_keys')).toBe(1);
    expect(await read('synchronous')).toBe(1);
    expect(await read('cache_size')).toBe(-32 * 1024);
  } finally {
    await database.destroy();
  }
});
