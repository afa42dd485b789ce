/**
 * `describeEachDialect(name, (t) => …)`: one describe per database dialect of the run (SQLite, and PostgreSQL when
 * the global setup has one), each with its own app (or database) made in the hooks and thrown away after. A test is
 * written once; a new dialect is one line in testDatabases().
 *
 *   describeEachDialect('songs API (%s)', (t) => {
 *     it('…', async () => {
 *       const admin = await makeAdmin(t);
 *       expect((await t.as(admin).get('/api/songs')).statusCode).toBe(200);
 *     });
 *   });
 *
 * `%s` in the name is the dialect. `t` is usable inside hooks and tests (t.dialect and t.withApp everywhere).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe } from 'vitest';
import type { AppDatabase } from '../src/db/database.js';
import {
  createTestApp,
  createTestDatabase,
  testDatabases,
  withTestApp,
  type Dialect,
  type OwnedTestApp,
  type TestApp,
  type TestAppOverrides,
} from './harness.js';

/** One app (or database) for the whole describe, made in beforeAll (the default), or a fresh one for each test. */
type Fresh = 'all' | 'each';

/** What every suite has, from the start: its dialect, and apps of their own for tests that need a particular one. */
export interface DialectSuite {
  readonly dialect: Dialect;
  /** Runs `work` on an app of its own (a fresh, empty database), closed afterwards whatever happens. */
  withApp<T>(overrides: TestAppOverrides, work: (t: TestApp) => Promise<T>): Promise<T>;
}

/** A suite with a whole app (the default). */
export type AppSuite = DialectSuite & TestApp;

/** A suite with a migrated, empty database and no app, for repository-level tests. */
export interface DatabaseSuite extends DialectSuite {
  readonly database: AppDatabase & { dataDir: string };
  readonly db: AppDatabase['db'];
}

export interface AppSuiteOptions extends TestAppOverrides {
  uses?: 'app';
  fresh?: Fresh;
  /** Overrides known only once the hooks run (a temp dir or a fake server made first), on top of the others. */
  prepare?: () => Promise<TestAppOverrides>;
}

export interface DatabaseSuiteOptions {
  uses: 'database';
  fresh?: Fresh;
  /** One dialect's behaviour alone (SQLite's write lock, say): the suite exists on that dialect only. */
  only?: Dialect;
}

/** No app and no database: each test makes what it needs with t.withApp. */
export interface BareSuiteOptions {
  uses: 'nothing';
}

type Body<T> = (t: T) => void;

export function describeEachDialect(name: string, body: Body<AppSuite>): void;
export function describeEachDialect(name: string, options: AppSuiteOptions, body: Body<AppSuite>): void;
export function describeEachDialect(name: string, options: DatabaseSuiteOptions, body: Body<DatabaseSuite>): void;
export function describeEachDialect(name: string, options: BareSuiteOptions, body: Body<DialectSuite>): void;
export function describeEachDialect(
  name: string,
  ...args:
    | [Body<AppSuite>]
    | [AppSuiteOptions, Body<AppSuite>]
    | [DatabaseSuiteOptions, Body<DatabaseSuite>]
    | [BareSuiteOptions, Body<DialectSuite>]
): void {
  const only = args.length === 2 && 'only' in args[0] ? args[0].only : undefined;
  const dialects = testDatabases().filter((dialect) => only === undefined || dialect === only);
  describe.each(dialects)(name, (dialect) => {
    if (args.length === 1) args[0](appSuite(dialect, {}));
    else if (args[0].uses === 'database') (args[1] as Body<DatabaseSuite>)(databaseSuite(dialect, args[0]));
    else if (args[0].uses === 'nothing') (args[1] as Body<DialectSuite>)(bareSuite(dialect));
    else (args[1] as Body<AppSuite>)(appSuite(dialect, args[0]));
  });
}

/** Registers `make` before and `drop` after the whole describe or each test. */
function lifecycle(fresh: Fresh, make: () => Promise<void>, drop: () => Promise<void>): void {
  if (fresh === 'each') {
    beforeEach(make);
    afterEach(drop);
  } else {
    beforeAll(make);
    afterAll(drop);
  }
}

function bareSuite(dialect: Dialect): DialectSuite {
  return { dialect, withApp: (overrides, work) => withTestApp(dialect, overrides, work) };
}

function notYet(what: string): Error {
  return new Error(`The ${what} of describeEachDialect exists only inside hooks and tests`);
}

function appSuite(dialect: Dialect, options: AppSuiteOptions): AppSuite {
  const { uses: _uses, fresh = 'all', prepare, ...overrides } = options;
  let current: OwnedTestApp | undefined;
  lifecycle(
    fresh,
    async () => {
      current = await createTestApp(dialect, { ...overrides, ...(await prepare?.()) });
    },
    async () => {
      await current?.close();
      current = undefined;
    },
  );
  const app = (): OwnedTestApp => {
    if (current === undefined) throw notYet('app');
    return current;
  };
  return {
    ...bareSuite(dialect),
    get app() {
      return app().app;
    },
    get db() {
      return app().db;
    },
    get config() {
      return app().config;
    },
    get dataDir() {
      return app().dataDir;
    },
    get composition() {
      return app().composition;
    },
    get catalogue() {
      return app().catalogue;
    },
    get blobs() {
      return app().blobs;
    },
    get store() {
      return app().store;
    },
    get setupCode() {
      return app().setupCode;
    },
    as: (caller) => app().as(caller),
  };
}

function databaseSuite(dialect: Dialect, options: DatabaseSuiteOptions): DatabaseSuite {
  let current: (AppDatabase & { dataDir: string }) | undefined;
  lifecycle(
    options.fresh ?? 'all',
    async () => {
      current = await createTestDatabase(dialect);
    },
    async () => {
      await current?.destroy();
      current = undefined;
    },
  );
  const database = () => {
    if (current === undefined) throw notYet('database');
    return current;
  };
  return {
    ...bareSuite(dialect),
    get database() {
      return database();
    },
    get db() {
      return database().db;
    },
  };
}
