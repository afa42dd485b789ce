import { expect, test, type Page } from '@playwright/test';
import { logIn, newAccount, registerAccount, type Account } from './support/pages/accounts.js';
import { Dashboard } from './support/pages/dashboard.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';
import {
  cachedDownloads,
  chooseSongMenuItem,
  currentUser,
  dismissAlerts,
  screenshotBoth,
  songLink,
  waitForServiceWorker,
} from './support/web-app.js';

// The demo provider is off unless asked for by name (PAYMENT_PROVIDER=demo).
const server = useTonearmServer({ payments: 'demo' });
const SONG = 'Night Ferry';
/** The demo provider's test cards (docs/payments.md). */
const CARD_OK = '4242424242424242';
const CARD_DECLINED = '4000000000000002';

let buyer: Account;

test.beforeAll(async () => {
  buyer = newAccount('buyer');
  await registerAccount(server.baseURL, buyer);
});

async function payWith(page: Page, card: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Pay with a test card' });
  await expect(form).toBeVisible();
  await form.getByLabel('Card number').fill(card);
  await form.getByLabel('Expiry (MM/YY)').fill('12/39');
  await form.getByLabel('CVC').fill('123');
  await form.getByRole('button', { name: 'Pay now' }).click();
}

test('a free user buys the demo plan: premium shows at once, without a reload, and Download then works', async ({
  page,
}) => {
  const dashboard = new Dashboard(page);
  await logIn(page, buyer);
  await waitForServiceWorker(page);

  // Download as a free user: sent to the plans with a word on why.
  const row = await dashboard.revealSong(await dashboard.openSongs(), SONG);
  await chooseSongMenuItem(page, row, SONG, 'Download');
  await expect(page).toHaveURL(/\/dashboard\/payment$/);
  await expect(page.getByRole('note')).toContainText(`Downloading “${SONG}” needs Premium.`);
  const status = page.getByTestId('premium-status');
  await expect(status).toHaveText('You are on the free plan.');
  const plans = page.getByRole('list', { name: 'Plans' });
  await expect(plans.getByRole('listitem')).toHaveCount(2);
  await screenshotBoth(page, 'payment-before');
  // Marks this document: after paying it must still be the same one (no reload).
  await page.evaluate(() => {
    document.body.dataset.e2eDocument = 'before-payment';
  });

  // A declined card: the result says so and nothing changes.
  await plans.getByRole('button', { name: /^Choose .*monthly/i }).click();
  await payWith(page, CARD_DECLINED);
  const result = page.getByRole('region', { name: 'Payment result' });
  await expect(result).toContainText('Payment failed');
  await expect(result).toContainText('Your card was declined. No payment was taken.');
  await expect(status).toHaveText('You are on the free plan.');

  await plans.getByRole('button', { name: /^Choose .*monthly/i }).click();
  await dismissAlerts(page);
  await screenshotBoth(page, 'payment-checkout');
  await payWith(page, CARD_OK);
  await expect(result).toContainText('Payment received');
  await expect(status).toHaveText(/^Premium until .+\.$/);
  await expect(result).toContainText(/Premium until .+\./);
  await expect(page.getByRole('button', { name: 'Profile', exact: true })).toContainText('Premium');
  const orders = page.getByRole('region', { name: 'Your orders' });
  await expect(orders.getByRole('row')).toHaveCount(3);
  await expect(orders.getByText('paid', { exact: true })).toBeVisible();
  await expect(orders.getByText('failed', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => document.body.dataset.e2eDocument)).toBe('before-payment');
  expect(await currentUser(server.baseURL, buyer)).toMatchObject({ premium: true });
  await dismissAlerts(page);
  await screenshotBoth(page, 'payment-after');

  // Download now works (same document: the stored user was replaced by the payment's answer).
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).click();
  const songs = dashboard.songList('Songs');
  const again = await dashboard.revealSong(songs, SONG);
  await chooseSongMenuItem(page, again, SONG, 'Download');
  await expect(dashboard.successAlert(`“${SONG}” is downloaded`)).toBeVisible({ timeout: 15_000 });
  expect(await cachedDownloads(page)).toContain(await songLink(page, SONG));
  expect(await page.evaluate(() => document.body.dataset.e2eDocument)).toBe('before-payment');
});
