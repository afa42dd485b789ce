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
    // A worker runs its files one after another in one module graph instead of importing the server afresh for each
    // file: the SQLite half went from 289 s to 166 s here. Each file still builds its own apps and databases; what is
    // shared is module state, so test data that must be unique is unique across files (test/factories.ts).
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
