import { defineProject } from 'vitest/config';

/**
 * Server tests: unit tests and API tests through app.inject. API tests run against SQLite and against one throwaway
 * PostgreSQL started by the global setup (each test file makes its own database in it). Forks, not threads: the
 * native modules (better-sqlite3, argon2) are happiest one per process; the root config caps workers at two for the two shared cores.
 */
export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // `*.postgres.test.ts`: PostgreSQL alone (several instances on one database), left out of a run asked for SQLite
    // alone (TEST_DIALECTS=sqlite, as test:node's legs do).
    exclude: process.env.TEST_DIALECTS === 'sqlite' ? ['**/*.postgres.test.ts', '**/node_modules/**'] : undefined,
    globalSetup: ['./test/global-setup.ts'],
    pool: 'forks',
    // One module graph per worker, not per file: each file imported the whole server again (183 s of import in a run
    // of the suite, 15 s without). Safe because no server test mocks modules or stubs globals (the files share a
    // process's modules, never its databases: each file opens its own); measured: 467 → 304 CPU-seconds.
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
