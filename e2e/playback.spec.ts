import { expect, test, type Page, type Response } from '@playwright/test';
import { logIn, newAccount, registerAccount, type Account } from './support/pages/accounts.js';
import { audioSnapshot, recordPlayingEvents, setGapless, songLength } from './support/pages/audio-probe.js';
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

/** Every answer for a song's audio from now on. */
function audioResponses(page: Page): Response[] {
  const responses: Response[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/media/audio/')) responses.push(response);
  });
  return responses;
}

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

/** On a slow link (64 KiB/s, about the original's bitrate) the middle of the song stays unbuffered for a while. */
async function throttle(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: 64 * 1024,
    uploadThroughput: -1,
  });
}

async function expectPlaysOn(dashboard: Dashboard, startedAt: number): Promise<void> {
  await expect
    .poll(async () => (await audioSnapshot(dashboard.audio)).currentTime, { timeout: 15_000 })
    .toBeGreaterThan(startedAt + 1);
  expect((await audioSnapshot(dashboard.audio)).paused).toBe(false);
}

/** The song plays on from where it started, and the player bar shows it playing. */
async function expectPlayingSong(
  dashboard: Dashboard,
  started: { paused: boolean; currentTime: number },
): Promise<void> {
  expect(started.paused).toBe(false);
  await expectPlaysOn(dashboard, started.currentTime);
  await expect(dashboard.player.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  await expect(dashboard.player.getByText(SONG, { exact: true })).toBeVisible();
}

test.describe('gapless playback (the default): the song streams through Media Source Extensions', () => {
  test('a logged-in listener plays a demo song from its gapless stream: "playing" fires and the time advances', async ({
    page,
  }) => {
    const responses = audioResponses(page);
    const dashboard = await playFromSongList(page);

    const started = await audioSnapshot(dashboard.audio);
    expect(started.src).toMatch(/^blob:/);
    const stream = responses.find((response) => /\/media\/audio\/[^?]+\?format=gapless$/.test(response.url()));
    expect(stream, 'a request for the gapless stream from the start').toBeDefined();
    expect(stream?.status()).toBe(200);
    expect(await stream?.headerValue('content-type')).toMatch(/^audio\/mp4/);
    await expectPlayingSong(dashboard, started);
  });

  test.describe('on a slow link', () => {
    // The throttle below is emulated for the page only; a service worker's own fetches would bypass it.
    test.use({ serviceWorkers: 'block' });

    test('seeking past what is held fetches the stream from there (&offset=, answered 200)', async ({ page }) => {
      const dashboard = await playFromSongList(page, () => throttle(page));
      // The element's own duration is open-ended (a stream the next song may be appended to): the song's is shown.
      const duration = await songLength(dashboard.player);
      expect(duration).toBeGreaterThan(30);

      const afterSeek = audioResponses(page);
      const middle = Math.floor(duration / 2);
      await dashboard.player.getByRole('slider', { name: 'Seek' }).fill(String(middle));

      await expect
        .poll(
          () =>
            afterSeek
              .filter((response) => response.status() === 200)
              .map((response) => new URL(response.url()).searchParams.get('offset'))
              .find((offset) => offset !== null),
          { message: 'a 200 answer for the gapless stream from the seek', timeout: 20_000 },
        )
        .toBe(String(middle * 1000));
      // The element's time is the song's position: the stream from the middle is placed there.
      await expectPlaysOn(dashboard, middle);
    });
  });
});

test.describe('with gapless playback off: the original file plays in an <audio> element', () => {
  test.beforeEach(async ({ page }) => {
    await setGapless(page, false);
  });

  test('a logged-in listener plays a demo song: "playing" fires and the time advances', async ({ page }) => {
    const dashboard = await playFromSongList(page);

    const started = await audioSnapshot(dashboard.audio);
    expect(started.src).toContain('/media/audio/');
    await expectPlayingSong(dashboard, started);
  });

  test.describe('on a slow link', () => {
    test.use({ serviceWorkers: 'block' });

    test('seeking to the middle fetches the rest with a Range request answered 206', async ({ page }) => {
      // On loopback Chromium buffers a whole demo song at once and a seek needs no request; a slow link keeps the
      // middle unbuffered, so the seek has to ask the server for it.
      const dashboard = await playFromSongList(page, () => throttle(page));
      const { duration } = await audioSnapshot(dashboard.audio);
      expect(duration).toBeGreaterThan(30);

      const afterSeek = audioResponses(page);
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
      await expectPlaysOn(dashboard, middle);
    });
  });
});
