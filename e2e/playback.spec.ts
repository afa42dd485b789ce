import { expect, test, type Page, type Response } from '@playwright/test';
import { logIn, newAccount, registerAccount, type Account } from './support/pages/accounts.js';
import { audioSnapshot, recordPlayingEvents } from './support/pages/audio-probe.js';
import { Dashboard } from './support/pages/dashboard.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';

const server = useTonearmServer();
/** The longest demo song (38 s): its middle is far from what a throttled connection buffers in a few seconds. */
const SONG = 'Low Tide Hymn';

let listener: Account;

test.beforeAll(async () => {
  listener = newAccount('listener');
  await registerAccount(server.baseURL, listener);
});

async function playFromSongList(page: Page, beforePlay?: () => Promise<void>): Promise<Dashboard> {
  const dashboard = new Dashboard(page);
  await logIn(page, listener);
  const row = await dashboard.revealSong(await dashboard.openSongs(), SONG);
  await recordPlayingEvents(dashboard.audio);
  await beforePlay?.();
  await row.getByRole('button', { name: `Play ${SONG}`, exact: true }).click();
  await expect(row.getByRole('button', { name: `Pause ${SONG}`, exact: true })).toBeVisible();
  await expect
    .poll(async () => (await audioSnapshot(dashboard.audio)).playingEvents, { timeout: 15_000 })
    .toBeGreaterThanOrEqual(1);
  return dashboard;
}

test('a logged-in listener plays a demo song: "playing" fires and the time advances', async ({ page }) => {
  const dashboard = await playFromSongList(page);

  const started = await audioSnapshot(dashboard.audio);
  expect(started.src).toContain('/media/audio/');
  expect(started.paused).toBe(false);
  await expect
    .poll(async () => (await audioSnapshot(dashboard.audio)).currentTime, { timeout: 15_000 })
    .toBeGreaterThan(started.currentTime + 1);
  await expect(dashboard.player.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  await expect(dashboard.player.getByText(SONG, { exact: true })).toBeVisible();
});

test.describe('on a slow link', () => {
  // The throttle below is emulated for the page only; a service worker's own fetches would bypass it.
  test.use({ serviceWorkers: 'block' });

  test('seeking to the middle fetches the rest with a Range request answered 206', async ({ page }) => {
    // On loopback Chromium buffers a whole demo song at once and a seek needs no request; a slow link (64 KiB/s,
    // about the song's bitrate) keeps the middle unbuffered, so the seek has to ask the server for it.
    const dashboard = await playFromSongList(page, async () => {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 20,
        downloadThroughput: 64 * 1024,
        uploadThroughput: -1,
      });
    });
    const { duration } = await audioSnapshot(dashboard.audio);
    expect(duration).toBeGreaterThan(30);

    const afterSeek: Response[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/media/audio/')) afterSeek.push(response);
    });
    const middle = Math.floor(duration / 2);
    await dashboard.player.getByRole('slider', { name: 'Seek' }).fill(String(middle));

    await expect
      .poll(
        async () => {
          for (const response of afterSeek) {
            const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec((await response.headerValue('content-range')) ?? '');
            if (response.status() === 206 && range && Number(range[1]) > 0) return response.request().headers().range;
          }
          return undefined;
        },
        { message: 'a 206 answer for a range starting past the first byte', timeout: 20_000 },
      )
      .toMatch(/^bytes=[1-9]\d*-/);

    await expect
      .poll(async () => (await audioSnapshot(dashboard.audio)).currentTime, { timeout: 15_000 })
      .toBeGreaterThan(middle + 1);
    expect((await audioSnapshot(dashboard.audio)).paused).toBe(false);
  });
});
