import { expect, test, type Browser, type Page } from '@playwright/test';
import { logIn, newAccount, registerAccount, type Account } from './support/pages/accounts.js';
import { audioSnapshot } from './support/pages/audio-probe.js';
import { Dashboard } from './support/pages/dashboard.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';

/**
 * One queue across devices (issue 27), with two browser contexts of one user: two devices. The first plays, the
 * second opens Tonearm and continues exactly there; then playback moves back to the first from the second's devices
 * menu, and the second pauses it remotely.
 */
const server = useTonearmServer();
const DUO_ARTIST = 'Slow Tide Ensemble';
let listener: Account;

test.beforeAll(async () => {
  listener = newAccount('devices');
  await registerAccount(server.baseURL, listener);
});

async function device(browser: Browser, agent: string): Promise<{ page: Page; dashboard: Dashboard }> {
  const context = await browser.newContext({ baseURL: server.baseURL, userAgent: agent });
  const page = await context.newPage();
  await logIn(page, listener);
  return { page, dashboard: new Dashboard(page) };
}

test('continue on another device, move playback back, and pause it from the other device', async ({ browser }) => {
  test.setTimeout(90_000);
  const laptop = await device(browser, 'Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/128.0');
  await laptop.dashboard.openArtist(DUO_ARTIST);
  await laptop.page.getByRole('button', { name: `Play ${DUO_ARTIST}` }).click();
  const song = (await laptop.dashboard.player.locator('.now-playing__name').textContent()) ?? '';
  await expect.poll(async () => (await audioSnapshot(laptop.dashboard.audio)).currentTime).toBeGreaterThan(0.5);
  await laptop.dashboard.player.getByRole('slider', { name: 'Seek' }).fill('20');
  // A pause is reported at once: the queue, the song and the position are on the server.
  await laptop.dashboard.player.getByRole('button', { name: 'Pause' }).click();
  await laptop.page.waitForTimeout(800);
  const pausedAt = (await audioSnapshot(laptop.dashboard.audio)).currentTime;

  const phone = await device(
    browser,
    'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
  );
  const offer = phone.page.getByRole('status').filter({ hasText: 'Continue from Firefox on Linux at 0:2' });
  await expect(offer).toBeVisible();
  await offer.getByRole('button', { name: 'Continue' }).click();
  await expect(phone.dashboard.player.locator('.now-playing__name')).toHaveText(song);
  await expect.poll(async () => (await audioSnapshot(phone.dashboard.audio)).paused).toBe(false);
  // On the gapless path the stream from the position is placed at its media time once its first data is in.
  await expect
    .poll(async () => Math.abs((await audioSnapshot(phone.dashboard.audio)).currentTime - pausedAt))
    .toBeLessThan(2);

  // From the phone's devices menu: the laptop is there; playback moves to it, and the phone pauses.
  await phone.dashboard.player.getByRole('button', { name: 'Devices' }).click();
  const menu = phone.page.getByRole('region', { name: 'Your devices' });
  const laptopEntry = menu.getByRole('listitem', { name: 'Firefox on Linux' });
  await expect(laptopEntry).toBeVisible();
  await laptopEntry.getByRole('button', { name: 'Play on Firefox on Linux' }).click();
  await expect.poll(async () => (await audioSnapshot(laptop.dashboard.audio)).paused).toBe(false);
  await expect.poll(async () => (await audioSnapshot(phone.dashboard.audio)).paused).toBe(true);
  await expect(laptop.dashboard.player.locator('.now-playing__name')).toHaveText(song);
  await expect
    .poll(async () => (await audioSnapshot(laptop.dashboard.audio)).currentTime)
    .toBeGreaterThan(pausedAt - 1);

  // The phone shows the laptop playing, and pauses it remotely.
  await expect(laptopEntry).toContainText('Playing');
  await laptopEntry
    .getByRole('group', { name: 'Controls of Firefox on Linux' })
    .getByRole('button', { name: 'Pause' })
    .click();
  await expect.poll(async () => (await audioSnapshot(laptop.dashboard.audio)).paused).toBe(true);
  await expect(laptopEntry).toContainText('Paused');
});
