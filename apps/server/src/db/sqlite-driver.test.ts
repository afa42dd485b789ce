import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteFile, sqliteDriverFor, type SqliteConnection } from './sqlite-driver.js';

describe('sqliteDriverFor', () => {
  it('keeps better-sqlite3 below Node 24, and takes node:sqlite from Node 24 on, where better-sqlite3 12 crashes', () => {
    expect(sqliteDriverFor('20.19.0')).toBe('better-sqlite3');
    expect(sqliteDriverFor('22.23.3')).toBe('better-sqlite3');
    expect(sqliteDriverFor('23.11.1')).toBe('better-sqlite3');
    expect(sqliteDriverFor('24.0.0')).toBe('node:sqlite');
    expect(sqliteDriverFor('24.21.0')).toBe('node:sqlite');
    expect(sqliteDriverFor('26.1.0')).toBe('node:sqlite');
  });
});

/** What `fn` throws, or a failure when it does not. */
function thrown(fn: () => unknown): { code?: unknown; message?: unknown } {
  try {
    fn();
  } catch (error) {
    return error as { code?: unknown; message?: unknown };
  }
  throw new Error('expected an error');
}

describe(`the SQLite driver on this Node (${process.versions.node})`, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tonearm-sqlite-driver-'));
  const opened: SqliteConnection[] = [];
  const open = (name: string, options?: Parameters<typeof openSqliteFile>[1]) => {
    const connection = openSqliteFile(path.join(dir, name), options);
    opened.push(connection);
    return connection;
  };
  afterAll(() => {
    for (const connection of opened) connection.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is the one sqliteDriverFor picks for this Node', () => {
    expect(open('picked.db').driver).toBe(sqliteDriverFor(process.versions.node));
  });

  it('binds parameters from an array, answers rows as objects and integers as numbers, and tells readers apart', () => {
    const db = open('rows.db');
    db.exec('create table t (id integer primary key, name text not null, size integer)');
    const insert = db.prepare('insert into t (name, size) values (?, ?)');
    expect(insert.reader).toBe(false);
    expect(insert.run(['a', 10])).toEqual({ changes: 1, lastInsertRowid: 1 });
    expect(insert.run(['b', null])).toEqual({ changes: 1, lastInsertRowid: 2 });
    const select = db.prepare('select id, name, size from t where id >= ? order by id');
    expect(select.reader).toBe(true);
    expect(select.all([1])).toEqual([
      { id: 1, name: 'a', size: 10 },
      { id: 2, name: 'b', size: null },
    ]);
    expect(select.get([2])).toEqual({ id: 2, name: 'b', size: null });
    expect(select.get([3])).toBeUndefined();
    expect([...select.iterate([1])].map((row) => (row as { name: string }).name)).toEqual(['a', 'b']);
    expect(db.prepare('delete from t returning id').reader, 'returning makes a reader').toBe(true);
  });

  it('names constraint failures as better-sqlite3 does, which db/errors.ts reads', () => {
    const db = open('constraints.db');
    db.exec(`pragma foreign_keys = ON;
      create table parent (id integer primary key, name text unique);
      create table child (parent_id integer not null references parent (id));
      insert into parent (id, name) values (1, 'x')`);
    const duplicate = thrown(() => db.prepare('insert into parent (name) values (?)').run(['x']));
    expect(duplicate.code).toBe('SQLITE_CONSTRAINT_UNIQUE');
    expect(duplicate.message).toBe('UNIQUE constraint failed: parent.name');
    expect(thrown(() => db.prepare('insert into parent (id) values (1)').run([])).code).toBe(
      'SQLITE_CONSTRAINT_PRIMARYKEY',
    );
    expect(thrown(() => db.prepare('insert into child values (?)').run([2])).code).toBe('SQLITE_CONSTRAINT_FOREIGNKEY');
    expect(thrown(() => db.prepare('select nothing from nowhere')).code).toBe('SQLITE_ERROR');
  });

  it('answers SQLITE_BUSY when another connection holds the write lock and the statement will not wait', () => {
    const holder = open('busy.db');
    holder.exec('create table t (x integer)');
    const other = open('busy.db');
    other.exec('pragma busy_timeout = 0');
    holder.exec('begin immediate');
    try {
      expect(thrown(() => other.exec('begin immediate')).code).toBe('SQLITE_BUSY');
    } finally {
      holder.exec('commit');
    }
  });

  it('opens with foreign keys on, as better-sqlite3 builds SQLite, and waits for a lock 5 s', () => {
    const db = open('defaults.db');
    expect(db.prepare('pragma foreign_keys').get([])).toEqual({ foreign_keys: 1 });
    expect(db.prepare('pragma busy_timeout').get([])).toEqual({ timeout: 5000 });
  });

  it('refuses a missing file when it must exist, and writes nothing through a read-only connection', () => {
    expect(() => openSqliteFile(path.join(dir, 'missing.db'), { mustExist: true })).toThrow(/missing\.db/);
    open('read-only.db').exec('create table t (x integer)');
    const reader = open('read-only.db', { readOnly: true, mustExist: true });
    expect(reader.prepare('select count(*) as n from t').get([])).toEqual({ n: 0 });
    expect(thrown(() => reader.exec('insert into t values (1)')).code).toBe('SQLITE_READONLY');
  });

  it('copies a live database with the online backup API, while its WAL still holds the last writes', async () => {
    const live = open('live.db');
    live.exec(`pragma journal_mode = WAL; create table t (x integer); insert into t values (1), (2), (3)`);
    await live.backup(path.join(dir, 'copy.db'));
    const copy = open('copy.db', { mustExist: true });
    expect(copy.prepare('select sum(x) as total from t').get([])).toEqual({ total: 6 });
  });
});
