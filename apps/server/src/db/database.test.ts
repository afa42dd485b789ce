import { describe, expect, it } from 'vitest';
import { sqliteUnsupportedOn } from './database.js';

describe('sqliteUnsupportedOn', () => {
  it('lets SQLite run on Node 20 and 22, the versions it is tested on', () => {
    expect(sqliteUnsupportedOn('20.19.0')).toBeNull();
    expect(sqliteUnsupportedOn('22.23.3')).toBeNull();
  });

  it('refuses Node 24 and later with what to do instead, where better-sqlite3 12 would crash', () => {
    expect(sqliteUnsupportedOn('24.21.0')).toBe(
      'SQLite (better-sqlite3 12) crashes on Node 24.21.0: run Tonearm on Node 20 or 22, or on PostgreSQL (DATABASE_URL)',
    );
    expect(sqliteUnsupportedOn('26.1.0')).not.toBeNull();
  });
});
