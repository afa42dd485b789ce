import { Kysely, SqliteDialect, sql, type Generated } from 'kysely';
import { describe, expect, it } from 'vitest';
import { CompiledStatements } from './compiled-statements.js';
import { openSqliteFile } from './sqlite-driver.js';

describe('compiled statements', () => {
  const db = new Kysely<{ t: { id: Generated<number>; name: string } }>({
    dialect: new SqliteDialect({ database: openSqliteFile(':memory:') }),
  });
  const named = (ids: number[]) => db.selectFrom('t').select('name').where('id', 'in', ids).orderBy('id');

  it('answers what the query builder answers, for every call of a shape, with that call’s parameters', async () => {
    await sql`create table t (id integer primary key, name text not null)`.execute(db);
    for (const name of ['a', 'b', 'c', 'd']) await db.insertInto('t').values({ name }).execute();
    const compiled = CompiledStatements.of(db);
    for (const ids of [[1, 2], [3, 4], [2, 9], [4]]) {
      expect(await compiled.rows(`t.byIds:${ids.length}`, ids, () => named(ids))).toEqual(await named(ids).execute());
    }
  });

  it('refuses parameters named in another order than the query takes them, at the first compilation', async () => {
    const compiled = CompiledStatements.of(db);
    const query = () => db.selectFrom('t').select('name').where('id', '=', 1).where('name', '=', 'a');
    await expect(compiled.rows('t.two', ['a', 1], query)).rejects.toThrow(/not the ones named/);
    expect(await compiled.rows('t.two', [1, 'a'], query)).toEqual([{ name: 'a' }]);
  });
});
