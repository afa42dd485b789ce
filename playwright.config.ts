import { defineConfig, devices } from '@playwright/test';

/** Chromium flags this machine needs (DEVELOPERS.md): no sandbox as root, and no background network calls. */
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--autoplay-policy=no-user-gesture-required',
];

/**
 * The specs that record what Chromium plays and measure it sample by sample (joins, fade curves): they run last and
 * alone, one at a time, after every other spec, so no other test's page, server or browser shares the 2 cores while
 * they play in real time (beside other specs a main thread held for 150 ms bent a fade's curve past its bound).
 */
const audioSpecs = ['**/gapless.spec.ts', '**/crossfade.spec.ts'];

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/support/global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 2,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  outputDir: 'test-results',
  // The JSON report feeds the summary of npm test; it goes to a file so a direct run prints only the list.
  reporter: [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? '.tmp/playwright.json' }]],
  use: {
    ...devices['Desktop Chrome'],
    channel: undefined,
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    serviceWorkers: 'allow',
  },
  projects: [
    { name: 'app', testIgnore: audioSpecs },
    { name: 'audio', testMatch: audioSpecs, dependencies: ['app'], workers: 1 },
  ],
});
