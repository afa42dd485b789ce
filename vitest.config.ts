import { defineConfig } from 'vitest/config';

/** One Vitest run covers every workspace; each workspace keeps its own environment and setup. */
export default defineConfig({
  test: {
    projects: ['packages/contract', 'apps/server', 'apps/web'],
  },
});
