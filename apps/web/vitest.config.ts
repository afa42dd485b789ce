import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // Generous for the same reason as asyncUtilTimeout in setup.ts: a loaded machine, not a slow app.
    testTimeout: 20_000,
  },
});
