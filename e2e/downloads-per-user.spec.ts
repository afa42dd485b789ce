import { expect, test, type Page } from '@playwright/test';
import { logIn, newAccount, registerAccount, type Account } from './support/pages/accounts.js';
import { Dashboard } from './support/pages/dashboard.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';
import {
  cachedDownloads,
  chooseSongMenuItem,
  grantPremium,
  songLink,
  waitForServiceWorker,
} from './support/web-app.js';

const server = useTonearmServer();
const SONG = 'Glasshouse';

let alice: Account;
let bruno: Account;

test.beforeAll(async () => {
  alice = newAccount('alice');
  bruno = newAccount('bruno');
  await registerAccount(server.baseURL, alice);
  await registerAccount(server.baseURL, bruno);
  // Both may download: what keeps Bruno from Alice's downloads is that they are hers, not his plan.
  await grantPremium(server.baseURL, server.admin, alice.username);
  await grantPremium(server.baseURL, server.admin, bruno.username);
});

/** What the page gets for `link` with the network off: a status from the service worker's cache, or no answer. */
function offlineFetch(page: Page, link: string): Promise<number | 'no answer'> {
  return page.evaluate(async (path) => {
    try {
      return (await fetch(path)).status;
    } catch {
      return 'no answer' as const;
    }
  }, link);
}

async function openDownloaded(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Downloaded' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Downloaded' })).toBeVisible();
}

test('downloads belong to who made them: the next person on the browser neither sees nor plays them', async ({
  page,
  context,
}) => {
  const dashboard = new Dashboard(page);
  const downloads = dashboard.songList('Downloaded songs');

  // Alice downloads a song, then logs out.
  await logIn(page, alice);
  await waitForServiceWorker(page);
  const link = await songLink(page, SONG);
  const row = await dashboard.revealSong(await dashboard.openSongs(), SONG);
  await chooseSongMenuItem(page, row, SONG, 'Download');
  await expect(dashboard.successAlert(`“${SONG}” is downloaded`)).toBeVisible({ timeout: 15_000 });
  expect(await cachedDownloads(page)).toContain(link);
  await dashboard.logOut();
  await expect(page.getByRole('form', { name: 'Log in' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('downloadedSong'))).toBeNull();
  // Logged out, the browser serves no downloaded audio.
  await context.setOffline(true);
  await expect.poll(() => offlineFetch(page, link)).toBe('no answer');
  await context.setOffline(false);

  // Bruno logs in on the same browser: no downloads listed, none of Alice's audio offline.
  await logIn(page, bruno);
  await openDownloaded(page);
  await expect(page.getByText('No downloads yet')).toBeVisible();
  await expect(downloads.getByRole('listitem', { name: SONG, exact: true })).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('downloadedSong'))).toBeNull();
  expect(await cachedDownloads(page)).toEqual([]);
  await context.setOffline(true);
  await expect.poll(() => offlineFetch(page, link)).toBe('no answer');
  await context.setOffline(false);
  await dashboard.logOut();
  await expect(page.getByRole('form', { name: 'Log in' })).toBeVisible();

  // Alice logs back in: her download is listed again and plays offline from her cache.
  await logIn(page, alice);
  await openDownloaded(page);
  await expect(downloads.getByRole('listitem', { name: SONG, exact: true })).toBeVisible();
  await expect(page.getByText(/^1 song · [\d.]+ MB on this device$/)).toBeVisible();
  await context.setOffline(true);
  await expect.poll(() => offlineFetch(page, link)).toBe(200);
  await context.setOffline(false);
});
