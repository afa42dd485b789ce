import { expect, test } from '@playwright/test';
import { logIn, newAccount, registerAccount, type Account } from './support/pages/accounts.js';
import { audioSnapshot, recordPlayingEvents } from './support/pages/audio-probe.js';
import { Dashboard } from './support/pages/dashboard.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';
import {
  cachedDownloads,
  chooseSongMenuItem,
  grantPremium,
  screenshotBoth,
  songLink,
  waitForServiceWorker,
} from './support/web-app.js';

const server = useTonearmServer();
const SONG = 'Glasshouse';

let premium: Account;
let free: Account;

test.beforeAll(async () => {
  premium = newAccount('premium');
  free = newAccount('free');
  await registerAccount(server.baseURL, premium);
  await registerAccount(server.baseURL, free);
  await grantPremium(server.baseURL, server.admin, premium.username);
});

test('a premium user downloads a song, plays it with the network off, and removing it deletes the audio', async ({
  page,
  context,
}) => {
  const dashboard = new Dashboard(page);
  await logIn(page, premium);
  await waitForServiceWorker(page);
  const link = await songLink(page, SONG);

  const row = await dashboard.revealSong(await dashboard.openSongs(), SONG);
  await chooseSongMenuItem(page, row, SONG, 'Download');
  await expect(dashboard.successAlert(`“${SONG}” is downloaded`)).toBeVisible({ timeout: 15_000 });
  expect(await cachedDownloads(page)).toContain(link);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Downloaded' }).click();
  const downloads = dashboard.songList('Downloaded songs');
  await expect(downloads.getByRole('listitem', { name: SONG, exact: true })).toBeVisible();
  await expect(page.getByText(/^1 song · [\d.]+ MB on this device$/)).toBeVisible();

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Downloaded' })).toBeVisible();
  await expect(page.getByText('You are offline. Downloaded songs still play.')).toBeVisible();
  await expect(downloads.getByRole('listitem', { name: SONG, exact: true })).toBeVisible();

  await recordPlayingEvents(dashboard.audio);
  await page.getByRole('button', { name: 'Play downloaded songs' }).click();
  await expect.poll(async () => (await audioSnapshot(dashboard.audio)).playingEvents, { timeout: 15_000 }).toBe(1);
  const started = await audioSnapshot(dashboard.audio);
  expect(new URL(started.src).pathname).toBe(link);
  await expect
    .poll(async () => (await audioSnapshot(dashboard.audio)).currentTime, { timeout: 15_000 })
    .toBeGreaterThan(started.currentTime + 1);
  await expect(dashboard.player.getByText(SONG, { exact: true })).toBeVisible();
  await screenshotBoth(page, 'downloaded-offline');

  await dashboard.player.getByRole('button', { name: 'Pause', exact: true }).click();
  await chooseSongMenuItem(page, downloads.getByRole('listitem', { name: SONG }), SONG, 'Remove from downloads');
  await expect(dashboard.successAlert(`Removed “${SONG}” from downloads`)).toBeVisible();
  await expect(page.getByText('No downloads yet')).toBeVisible();
  await expect.poll(() => cachedDownloads(page)).toEqual([]);
  expect(await page.evaluate(() => localStorage.getItem('downloadedSong'))).toBe('[]');
  await context.setOffline(false);
});

test('a free user pressing Download lands on the payment page, which says payments are not set up here', async ({
  page,
}) => {
  const dashboard = new Dashboard(page);
  await logIn(page, free);
  const row = await dashboard.revealSong(await dashboard.openSongs(), SONG);
  await chooseSongMenuItem(page, row, SONG, 'Download');
  await expect(page).toHaveURL(/\/dashboard\/payment$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Listen without limits' })).toBeVisible();
  // This server runs no payment provider (the default): no checkout, and the page says who can grant Premium.
  await expect(page.getByRole('note')).toHaveText(`Downloading “${SONG}” needs Premium.`);
  await expect(page.getByTestId('payments-off')).toHaveText(
    'Payments are not set up on this server. Ask an administrator of this server to grant you Premium.',
  );
  await expect(page.getByRole('button', { name: /^Choose / })).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('downloadedSong'))).toBeNull();
});
