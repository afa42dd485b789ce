import { Kysely, SqliteDialect, sql, type Generated } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteFile } from './sqlite-driver.js';
import { withStatementCache } from './statement-cache.js';

describe('the SQLite statement cache', () => {
  const sqlite = openSqliteFile(':memory:');
  afterEach(() => {
    sqlite.exec('drop table if exists t');
  });

  it('prepares each query once, and keeps no more than its size, least recently used out first', () => {
    const cached = withStatementCache(sqlite, 2);
    const a = cached.prepare('select 1');
    expect(cached.prepare('select 1')).toBe(a);
    const b = cached.prepare('select 2');
    expect(cached.prepare('select 1'), 'used again: now the most recent').toBe(a);
    cached.prepare('select 3');
    expect(cached.prepare('select 1'), 'kept').toBe(a);
    expect(cached.prepare('select 2'), 'the least recently used went out').not.toBe(b);
  });

  it('answers what a fresh statement would through Kysely, across schema changes and writes', async () => {
    const db = new Kysely<{ t: { id: Generated<number>; name: string } }>({
      dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    });
    await sql`create table t (id integer primary key, name text not null)`.execute(db);
    for (const name of ['a', 'b', 'c']) await db.insertInto('t').values({ name }).execute();
    const names = () => db.selectFrom('t').select('name').orderBy('id').execute();
    expect(await names()).toEqual([{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
    await db.deleteFrom('t').where('name', '=', 'b').execute();
    expect(await names()).toEqual([{ name: 'a' }, { name: 'c' }]);
    // A schema change under a kept statement: SQLite prepares it again by itself.
    await sql`alter table t add column extra integer`.execute(db);
    expect(await db.selectFrom('t').selectAll().orderBy('id').execute()).toEqual([
      { id: 1, name: 'a', extra: null },
      { id: 3, name: 'c', extra: null },
    ]);
  });
});
