import { gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { logIn, newAccount, registerAccount } from './support/pages/accounts.js';
import { audioSnapshot } from './support/pages/audio-probe.js';
import { Dashboard } from './support/pages/dashboard.js';
import { saveFullPage } from './support/pages/screenshots.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';

// Issue 26, "a lighter first page": what a signed-out visit to / fetches, and where its form sits.
const server = useTonearmServer();

/** The signed-out page's JavaScript, gzip -9 as a proxy would send it (the server itself does not compress). */
const SIGNED_OUT_JS_BUDGET = 100 * 1024;

interface Fetched {
  url: string;
  resourceType: string;
  body: Buffer;
}

/** Everything the page fetches (with the bodies) from now until `settled` resolves. */
function recordRequests(page: Page): { all: Fetched[]; settled: () => Promise<Fetched[]> } {
  const all: Fetched[] = [];
  const pending: Promise<void>[] = [];
  page.on('requestfinished', (request) => {
    pending.push(
      request.response().then(async (response) => {
        const body = response === null ? Buffer.alloc(0) : await response.body().catch(() => Buffer.alloc(0));
        all.push({ url: request.url(), resourceType: request.resourceType(), body });
      }),
    );
  });
  return {
    all,
    settled: async () => {
      await Promise.all(pending);
      return all;
    },
  };
}

test('a signed-out visit to / fetches no audio and no player code, and under 100 KB of JavaScript', async ({
  page,
}) => {
  const requests = recordRequests(page);
  await page.goto('/');
  await expect(page.getByRole('form', { name: 'Log in' })).toBeVisible();
  // Whatever the page would fetch later on its own (lazy chunks, the service worker's precache) has its chance.
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1000);
  const fetched = await requests.settled();
  const paths = fetched.map((request) => new URL(request.url).pathname);

  expect(paths.filter((path) => path.endsWith('.wav') || path.startsWith('/media/'))).toEqual([]);
  expect(fetched.filter((request) => request.resourceType === 'media')).toEqual([]);
  // The player (player/, the player bar) is the dashboard layout's chunk; the router's chunk is not needed either.
  expect(paths.filter((path) => /\/assets\/(DashboardLayout|RoutedApp)-/.test(path))).toEqual([]);
  // No service worker either: its precache would download every chunk and the welcome song.
  expect(await page.evaluate(() => navigator.serviceWorker.getRegistrations().then((list) => list.length))).toBe(0);

  const scripts = fetched.filter((request) => request.url.endsWith('.js'));
  const gzipBytes = scripts.reduce((total, request) => total + gzipSync(request.body, { level: 9 }).length, 0);
  expect(scripts.length).toBeGreaterThan(0);
  expect(gzipBytes, scripts.map((request) => new URL(request.url).pathname).join('\n')).toBeLessThan(
    SIGNED_OUT_JS_BUDGET,
  );
});

test('on a phone the sign-in form starts on the first screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  const form = page.getByRole('form', { name: 'Log in' });
  await expect(form).toBeVisible();
  const box = await form.boundingBox();
  expect(box).not.toBeNull();
  // Its top and its first field are on screen without scrolling.
  expect(box?.y ?? Infinity).toBeLessThan(844);
  const field = await form.getByLabel('Username or email').boundingBox();
  expect((field?.y ?? Infinity) + (field?.height ?? 0)).toBeLessThanOrEqual(844);
  await saveFullPage(page, 'first-page-phone-log-in');
  await page.getByRole('tab', { name: 'Sign up' }).click();
  await expect(page.getByRole('form', { name: 'Sign up' })).toBeVisible();
  await saveFullPage(page, 'first-page-phone-sign-up');
});

test('on a desktop the card stays put when switching between Log in and Sign up', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  const card = page.getByRole('region', { name: 'Log in or sign up' });
  const tabs = card.getByRole('tablist');
  await expect(card.getByRole('form', { name: 'Log in' })).toBeVisible();
  const logInCard = await card.boundingBox();
  const logInTabs = await tabs.boundingBox();
  await saveFullPage(page, 'first-page-desktop-log-in');

  await card.getByRole('tab', { name: 'Sign up' }).click();
  await expect(card.getByRole('form', { name: 'Sign up' })).toBeVisible();
  const signUpCard = await card.boundingBox();
  const signUpTabs = await tabs.boundingBox();
  await saveFullPage(page, 'first-page-desktop-sign-up');

  // The two forms differ in height; the card's top and left (and the tabs on it) do not move.
  expect(signUpCard?.height).not.toBe(logInCard?.height);
  expect(Math.abs((signUpCard?.y ?? 0) - (logInCard?.y ?? Infinity))).toBeLessThanOrEqual(4);
  expect(Math.abs((signUpCard?.x ?? 0) - (logInCard?.x ?? Infinity))).toBeLessThanOrEqual(4);
  expect(Math.abs((signUpTabs?.y ?? 0) - (logInTabs?.y ?? Infinity))).toBeLessThanOrEqual(4);

  await card.getByRole('tab', { name: 'Log in' }).click();
  await expect(card.getByRole('form', { name: 'Log in' })).toBeVisible();
  expect(Math.abs(((await card.boundingBox())?.y ?? 0) - (logInCard?.y ?? Infinity))).toBeLessThanOrEqual(4);
});

test('after signing in on a signed-out first page, the welcome song plays', async ({ page }) => {
  const account = newAccount('first-page');
  await registerAccount(server.baseURL, account);
  await logIn(page, account);
  const dashboard = new Dashboard(page);
  await expect(dashboard.player).toContainText('Welcome');
  await dashboard.player.getByRole('button', { name: 'Play', exact: true }).click();
  await expect.poll(async () => (await audioSnapshot(dashboard.audio)).paused).toBe(false);
  await expect.poll(async () => (await audioSnapshot(dashboard.audio)).currentTime).toBeGreaterThan(0.2);
  expect((await audioSnapshot(dashboard.audio)).src).toContain('/welcome-chime.wav');
  // Moving between dashboard pages keeps the same player (the same <audio>, not stopped unless the song ended).
  await dashboard.audio.evaluate((element: HTMLAudioElement) => (element.dataset.e2eSame = 'yes'));
  await dashboard.nav.getByRole('link', { name: 'Playlists' }).click();
  await expect(page).toHaveURL(/\/dashboard\/playlist$/);
  await expect(dashboard.audio).toHaveAttribute('data-e2e-same', 'yes');
  const after = await audioSnapshot(dashboard.audio);
  expect(after.paused && after.currentTime < after.duration - 0.1).toBe(false);
});
