import { defineConfig } from 'vitest/config';

/** One Vitest run covers every workspace; each workspace keeps its own environment and setup. */
export default defineConfig({
  test: {
    projects: ['packages/contract', 'apps/server', 'apps/web'],
    // Two cores: more workers only queue up (each server test file also talks to PostgreSQL).
    maxWorkers: 2,
  },
});
