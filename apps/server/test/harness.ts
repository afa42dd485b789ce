import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { buildAppWith } from '../src/app.js';
import type { Composition, OnBuild } from '../src/composition.js';
import { loadConfig, type Config } from '../src/config.js';
import { createDatabase, type AppDatabase, type Dialect } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrations/index.js';
import { SetupCode } from '../src/setup-code.js';
import type { DB } from '../src/db/schema.js';
import type { App } from '../src/http/app-types.js';
import type { ImageWork } from '../src/media/image-work.js';
import type { BlobStore } from '../src/storage/blob-store.js';
import { createBlobStore } from '../src/storage/create-blob-store.js';
import { LocalBlobStore } from '../src/storage/local-blob-store.js';
import { clientOf, type Caller, type Client } from './client.js';
import './provided-context.js';

export type { Dialect } from '../src/db/database.js';

export const DEFAULT_PASSWORD = 'correct horse battery staple';

/** The dialects this run can test: always sqlite, plus postgres when the global setup has one. */
export function testDatabases(): Dialect[] {
  return inject('pgAdminUrl') === null ? ['sqlite'] : ['sqlite', 'postgres'];
}

/** A whole app on a database of its own, as a test sees it. */
export interface TestApp {
  app: App;
  db: Kysely<DB>;
  dialect: Dialect;
  config: Config;
  /** Fresh temp DATA_DIR of this app (blobs; the SQLite file on sqlite). */
  dataDir: string;
  /** The app's blob store on the local disk (`${dataDir}/blobs`); null with `withoutBlobs` or STORAGE=s3. */
  blobs: LocalBlobStore | null;
  /** The app's blob store, whichever STORAGE the env names (`blobs`, or the S3 bucket); null with `withoutBlobs`. */
  store: BlobStore | null;
  /** The app's one-time setup code (what main.ts would print). */
  setupCode: SetupCode;
  /** What the app is made of (composition.ts): its services, its catalogue writers, its jobs. */
  composition: Composition;
  /** The app's catalogue writers (what the demo seed writes through). */
  catalogue: Composition['catalogue'];
  /** Requests as `caller` (a user's session, or null for nobody): `t.as(user).get('/api/songs')`. */
  as(caller: Caller): Client;
}

/** A test app and the means to throw it away (database, temp dir and all). */
export interface OwnedTestApp extends TestApp {
  close(): Promise<void>;
}

export interface TestAppOverrides {
  /** Environment variables on top of the test defaults (as loadConfig reads them). */
  env?: Record<string, string>;
  /** Direct changes to the parsed config. */
  config?: Partial<Config>;
  /** Leave out the blob store (modules that need one must then not be exercised). */
  withoutBlobs?: boolean;
  /** The app's image gate and pixel ceiling (a test can then hold the gate); by default made from the config. */
  images?: ImageWork;
  /** A logger of the test's own (e.g. to collect what the app logs); by default LOG_LEVEL decides (silent). */
  logger?: FastifyBaseLogger;
  /** Told the name of every part the composition root builds. */
  onBuild?: OnBuild;
}

function withDatabase(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function adminQuery(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh database of the dialect: SQLite in dataDir, or a new PostgreSQL database (dropped by the returned cleanup). */
async function freshDatabase(
  dialect: Dialect,
  dataDir: string,
): Promise<{ database: AppDatabase; databaseUrl: string | null; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    return { database: createDatabase({ dataDir }), databaseUrl: null, drop: () => Promise.resolve() };
  }
  const { databaseUrl, drop } = await emptyPostgresDatabase();
  return { database: createDatabase({ dataDir, databaseUrl, poolSize: 4 }), databaseUrl, drop };
}

/** A new PostgreSQL database of the run with no tables at all (not even migrated), and the means to drop it. */
export async function emptyPostgresDatabase(): Promise<{ databaseUrl: string; drop: () => Promise<void> }> {
  const adminUrl = inject('pgAdminUrl');
  if (adminUrl === null) throw new Error('PostgreSQL is not available in this run (see the banner at the start)');
  const name = `t_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name}`);
  return {
    databaseUrl: withDatabase(adminUrl, name),
    drop: () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`),
  };
}

/** A migrated, empty database of the dialect with its temp dir, for repository-level tests. */
export async function createTestDatabase(dialect: Dialect): Promise<AppDatabase & { dataDir: string }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'tonearm-test-'));
  const { database, drop } = await freshDatabase(dialect, dataDir);
  await migrateToLatest(database.db);
  return {
    ...database,
    dataDir,
    async destroy() {
      await database.destroy();
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A whole app on a fresh, migrated database of the dialect, in a fresh temp DATA_DIR. Auth, upload and checkout rate
 * limits are lifted (tests log in, upload and check out often from one address and user) unless `env` says otherwise;
 * scans read their files on the main thread (SCAN_THREADS=0: a scan thread under tsx loads the TypeScript again, a
 * second a scan; scan-readers.test.ts and the built server's tests cover the threads); the background audio analysis
 * is off (ANALYSIS=0: its own tests turn it on); every other limit keeps its default. Call close() when done
 * (describeEachDialect and withTestApp do).
 */
export async function createTestApp(dialect: Dialect, overrides: TestAppOverrides = {}): Promise<OwnedTestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'tonearm-test-'));
  const { database, databaseUrl, drop } = await freshDatabase(dialect, dataDir);
  try {
    await migrateToLatest(database.db);
    const env: Record<string, string> = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      AUTH_RATE_LIMIT: '100000',
      AUTH_ACCOUNT_LIMIT: '100000',
      UPLOAD_RATE_LIMIT: '100000',
      CHECKOUT_RATE_LIMIT: '100000',
      SCAN_THREADS: '0',
      // The audio analysis would decode every song a test uploads: its own tests turn it on (ANALYSIS=1).
      ANALYSIS: '0',
      ...(databaseUrl === null ? {} : { DATABASE_URL: databaseUrl }),
      ...overrides.env,
    };
    const config: Config = { ...loadConfig(env), webDist: null, ...overrides.config };
    const store = overrides.withoutBlobs === true ? null : await createBlobStore(config);
    const blobs = store instanceof LocalBlobStore ? store : null;
    const setupCode = new SetupCode();
    const { app, composition } = await buildAppWith({
      config,
      db: database.db,
      dialect,
      blobs: store,
      setupCode,
      poolUse: database.poolUse,
      ...(overrides.images === undefined ? {} : { images: overrides.images }),
      ...(overrides.logger === undefined ? {} : { logger: overrides.logger }),
      ...(overrides.onBuild === undefined ? {} : { onBuild: overrides.onBuild }),
    });
    return {
      app,
      db: database.db,
      dialect,
      config,
      dataDir,
      blobs,
      store,
      setupCode,
      composition,
      catalogue: composition.catalogue,
      as: (caller) => clientOf(app, caller),
      async close() {
        await app.close();
        await database.destroy();
        await drop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await database.destroy();
    await drop();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** Runs `work` on an app of its own (a fresh, empty database), closed afterwards whatever happens. */
export async function withTestApp<T>(
  dialect: Dialect,
  overrides: TestAppOverrides,
  work: (t: TestApp) => Promise<T>,
): Promise<T> {
  const t = await createTestApp(dialect, overrides);
  try {
    return await work(t);
  } finally {
    await t.close();
  }
}

let counter = 0;

/** A username unique within the run (3–32 chars of the allowed set). */
export function uniqueName(prefix = 'user'): string {
  counter += 1;
  return `${prefix}_${counter}_${randomBytes(3).toString('hex')}`;
}

export interface RegisterInput {
  username: string;
  email?: string;
  password?: string;
  gender?: string;
  address?: string;
}

/** Registers through the API and asserts the 201. */
export async function registerUser(app: App, input: RegisterInput): Promise<void> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: {
      email: `${input.username.toLowerCase()}@example.test`,
      password: DEFAULT_PASSWORD,
      ...input,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
}

/** Logs in through the API and answers the Cookie header value to send with later requests. */
export async function login(app: App, username: string, password: string = DEFAULT_PASSWORD): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
  expect(response.statusCode, response.body).toBe(200);
  const cookie = response.cookies.find((c) => c.name === 'tonearm_session');
  if (cookie === undefined) throw new Error('login answered without a session cookie');
  return `${cookie.name}=${cookie.value}`;
}

/** Parses a JSON error body and answers its `error` object. */
export function errorOf(body: string): { code: string; message: string; field?: string } {
  return (JSON.parse(body) as { error: { code: string; message: string; field?: string } }).error;
}
