import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiSession, logIn, newAccount, registerAccount, type Account } from './support/pages/accounts.js';
import { audioSnapshot, recordPlayingEvents } from './support/pages/audio-probe.js';
import { Dashboard } from './support/pages/dashboard.js';
import { saveFullPage } from './support/pages/screenshots.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';

/*
 * Your listening in numbers (issue 28), in Chromium: a song played past its middle is a listen (seeking past the
 * middle is not), and the statistics page shows the minutes, the charts and the year's card; administrators see the
 * server's numbers.
 */
const server = useTonearmServer();
/** The longest demo song (38 s): a listen once 19 s of it were heard. */
const SONG = 'Low Tide Hymn';
const HALF_SECONDS = 19;

let listener: Account;

test.beforeAll(async () => {
  listener = newAccount('counter');
  await registerAccount(server.baseURL, listener);
});

interface WeekStats {
  plays: number;
  listenedMs: number;
  topSongs: { name: string }[];
}

async function weekOf(api: APIRequestContext): Promise<WeekStats> {
  const response = await api.get('/api/stats?period=week&tz=UTC');
  expect(response.status()).toBe(200);
  return (await response.json()) as WeekStats;
}

/** What scrolls sideways on the page (the document, or any element that scrolls). */
function horizontalScrolls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    if (document.documentElement.scrollWidth > window.innerWidth + 1) found.push('the page');
    for (const element of Array.from(document.querySelectorAll('body *'))) {
      const { overflowX } = getComputedStyle(element);
      if ((overflowX === 'auto' || overflowX === 'scroll') && element.scrollWidth > element.clientWidth + 1) {
        found.push(`${element.tagName.toLowerCase()}.${element.className}`);
      }
    }
    return found;
  });
}

/** Visible controls smaller than 44×44 px (issue 26's phone rule; inline links in text are WCAG's exception). */
function smallControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const element of Array.from(document.querySelectorAll<HTMLElement>('a[href], button, select, summary'))) {
      if (!element.checkVisibility({ checkOpacity: true, visibilityProperty: true })) continue;
      const box = element.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1 || box.right <= 0 || box.left >= window.innerWidth) continue;
      const inline = getComputedStyle(element).display === 'inline';
      if (inline && element.closest('p, li, td, dd, .song-artists') !== null) continue;
      if (box.width + 0.5 < 44 || box.height + 0.5 < 44) {
        found.push(`${element.tagName.toLowerCase()} "${element.textContent.trim().slice(0, 30)}"`);
      }
    }
    return found;
  });
}

/** Pixels of the chart's canvas that are drawn on (not transparent). */
function drawnPixels(page: Page, chart: string): Promise<number> {
  return page
    .getByRole('figure', { name: chart })
    .locator('canvas')
    .evaluate((canvas: HTMLCanvasElement) => {
      const context = canvas.getContext('2d');
      if (!context) return 0;
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      let drawn = 0;
      for (let alpha = 3; alpha < data.length; alpha += 4) if ((data[alpha] ?? 0) > 0) drawn += 1;
      return drawn;
    });
}

test('a song heard past its middle counts once, and the statistics page shows the minutes and the charts', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const dashboard = new Dashboard(page);
  await logIn(page, listener);
  const api = page.request;
  expect((await weekOf(api)).plays).toBe(0);

  const row = await dashboard.revealSong(await dashboard.openSongs(), SONG);
  await recordPlayingEvents(dashboard.audio);
  await row.getByRole('button', { name: `Play ${SONG}`, exact: true }).click();
  await expect.poll(async () => (await audioSnapshot(dashboard.audio)).playingEvents).toBeGreaterThanOrEqual(1);
  // Straight past the middle: what was skipped is not heard.
  const seek = dashboard.player.getByRole('slider', { name: 'Seek' });
  await seek.fill('25');
  await expect.poll(async () => Number(await seek.inputValue()), { timeout: 10_000 }).toBeGreaterThanOrEqual(28);
  expect((await weekOf(api)).plays).toBe(0);

  // From the start again: 19 s of actual playing make it a listen.
  await seek.fill('0');
  const started = Date.now();
  await expect
    .poll(async () => (await weekOf(api)).plays, { timeout: (HALF_SECONDS + 25) * 1000, intervals: [1000] })
    .toBe(1);
  // The 3 s heard after the seek count (the same play), the seek itself did not.
  expect(Date.now() - started).toBeGreaterThanOrEqual((HALF_SECONDS - 8) * 1000);
  await dashboard.player.getByRole('button', { name: 'Pause', exact: true }).click();
  const week = await weekOf(api);
  expect(week.listenedMs).toBeGreaterThanOrEqual(HALF_SECONDS * 1000);
  expect(week.topSongs.map((song) => song.name)).toEqual([SONG]);

  // The statistics page, from the sidebar (the player stays).
  await dashboard.nav.getByRole('link', { name: 'Your stats' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your listening' })).toBeVisible();
  const figure = (label: string) => page.locator('.stats-figure', { has: page.getByText(label, { exact: true }) });
  await expect(figure('Listens').locator('dd')).toHaveText('1');
  // A half-heard 38 s song (or more, if the pause came late): 0.3 minutes at least.
  const minutes = Number(await figure('Minutes listened').locator('dd').textContent());
  expect(minutes).toBeGreaterThanOrEqual(0.3);
  expect(minutes).toBeLessThan(1);
  await expect(page.getByRole('region', { name: 'Top songs' }).getByRole('listitem')).toHaveText([
    new RegExp(`^${SONG}`),
  ]);
  // The charts are drawn (Chart.js on a canvas), and their numbers are a table too.
  await expect.poll(() => drawnPixels(page, 'Listening by hour')).toBeGreaterThan(500);
  await expect.poll(() => drawnPixels(page, 'Listening by weekday')).toBeGreaterThan(500);
  const hours = page.getByRole('figure', { name: 'Listening by hour' });
  await hours.getByText('Show the numbers').click();
  await expect(hours.getByRole('table')).toBeVisible();
  await expect(hours.getByRole('row')).toHaveCount(25);

  // The year's card: a PNG the server drew, 1080 px wide.
  const card = page.getByRole('img', { name: /^Your \d{4} in music/ });
  await card.scrollIntoViewIfNeeded();
  await expect.poll(() => card.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(1080);
  const download = page.getByRole('link', { name: 'Download the card' });
  expect((await api.get((await download.getAttribute('href')) ?? '')).headers()['content-type']).toBe('image/png');
  // The listens, exported.
  const csv = await api.get((await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href')) ?? '');
  expect(csv.headers()['content-disposition']).toMatch(/^attachment; filename="tonearm-listens-/);
  expect((await csv.text()).split('\r\n')[1]).toContain(`,${SONG},`);
  await saveFullPage(page, 'statistics-desktop');

  // It fits a phone, with controls a finger can hit.
  // Loaded at the phone's width (as layout-widths.spec.ts does): the drawer starts closed, not closing.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Your listening' })).toBeVisible();
  await expect.poll(() => drawnPixels(page, 'Listening by hour')).toBeGreaterThan(500);
  expect([...(await horizontalScrolls(page)), ...(await smallControls(page))]).toEqual([]);
  await saveFullPage(page, 'statistics-phone');
});

test('administrators see the server’s statistics: the most played and the active listeners', async ({ page }) => {
  // A listen of the listener's, through the API (the first test played one in the browser when run before).
  const listenerApi = await apiSession(server.baseURL, listener);
  try {
    const songs = (await (await listenerApi.get('/api/songs')).json()) as { id: number; name: string }[];
    const song = songs.find((entry) => entry.name === SONG);
    if (!song) throw new Error(`no ${SONG}`);
    const playedAt = new Date(Date.now() - 60_000).toISOString();
    const answer = await listenerApi.post('/api/listens', {
      data: { songId: song.id, startedAt: playedAt, listenedMs: 38_000 },
    });
    expect(answer.status()).toBe(204);
  } finally {
    await listenerApi.dispose();
  }
  await logIn(page, server.admin);
  await new Dashboard(page).nav.getByRole('link', { name: 'Server stats' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Server statistics' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Most played' }).getByRole('row').nth(1)).toContainText(SONG);
  await expect.poll(() => drawnPixels(page, 'Active listeners per day')).toBeGreaterThan(100);
  await saveFullPage(page, 'server-statistics-desktop');
});
