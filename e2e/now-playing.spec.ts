import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiSession, logIn, newAccount, registerAccount, type Account } from './support/pages/accounts.js';
import { Dashboard } from './support/pages/dashboard.js';
import { saveFullPage } from './support/pages/screenshots.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';
import { DESKTOP, dismissAlerts } from './support/web-app.js';

// Issue 26, item 6: the Now playing view, opened from the player bar's cover or, on a phone, the mini-player.
const server = useTonearmServer();
/** The demo artist with exactly two songs, in this order on their page. */
const DUO_ARTIST = 'Slow Tide Ensemble';
const PHONE = { width: 390, height: 844 } as const;

let listener: Account;

test.beforeAll(async () => {
  listener = newAccount('nowplaying');
  await registerAccount(server.baseURL, listener);
});

function names(list: Locator): Promise<string[]> {
  return list.getByRole('listitem').evaluateAll((items) => items.map((item) => item.getAttribute('aria-label') ?? ''));
}

async function likedSongNames(): Promise<string[]> {
  const api = await apiSession(server.baseURL, listener);
  try {
    const response = await api.get('/api/songs/liked');
    expect(response.ok()).toBe(true);
    return ((await response.json()) as { name: string }[]).map((song) => song.name);
  } finally {
    await api.dispose();
  }
}

function nowPlayingView(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Now playing', exact: true });
}

test('Now playing: opened by the cover on a desktop and by the mini-player on a phone; like, next and an artist link from it', async ({
  page,
}) => {
  const dashboard = new Dashboard(page);
  await page.setViewportSize(DESKTOP);
  await logIn(page, listener);
  const list = await dashboard.openArtist(DUO_ARTIST);
  const [first = '', second = ''] = await names(list);
  await page.getByRole('button', { name: `Play ${DUO_ARTIST}` }).click();
  const barTitle = dashboard.player.locator('.now-playing__name');
  await expect(barTitle).toHaveText(first);

  // Desktop: the cover is the button.
  const opener = dashboard.player.getByRole('button', { name: 'Now playing', exact: true });
  await opener.click();
  const view = nowPlayingView(page);
  await expect(view).toBeVisible();
  await expect(view.getByRole('heading', { name: first, exact: true })).toBeVisible();
  await expect(view.getByRole('region', { name: 'Lyrics' })).toContainText('No lyrics for this song.');
  expect(await names(view.getByRole('list', { name: 'Next up' }))).toEqual([second]);

  // Like, from the view: the server has it, and the bar shows it.
  const like = view.getByRole('button', { name: `Like ${first}`, exact: true });
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(likedSongNames).toContain(first);
  await expect(dashboard.player.getByRole('button', { name: `Like ${first}`, exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  // Paused for the picture (the clock stands still), with the second song waiting in the view's queue.
  await view.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(dashboard.player.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  await dismissAlerts(page);
  await saveFullPage(page, 'now-playing-desktop', { expandMain: false });

  // Next, from the view: the view and the bar follow the player.
  await view.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(view.getByRole('heading', { name: second, exact: true })).toBeVisible();
  await expect(barTitle).toHaveText(second);

  // Escape closes it; the focus is back on the cover.
  await page.keyboard.press('Escape');
  await expect(view).toBeHidden();
  await expect(opener).toBeFocused();

  // Phone: a tap on the mini-player's title opens it too.
  await page.setViewportSize(PHONE);
  const miniPlayer = dashboard.player.locator('.now-playing');
  const box = await miniPlayer.boundingBox();
  if (!box) throw new Error('no mini-player');
  await miniPlayer.click({ position: { x: box.width - 8, y: box.height / 2 } });
  await expect(view).toBeVisible();
  await expect(view.getByRole('heading', { name: second, exact: true })).toBeVisible();
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(sideways).toBeLessThanOrEqual(1);
  await saveFullPage(page, 'now-playing-phone', { expandMain: false });

  // Dark theme, both sizes.
  await page.emulateMedia({ colorScheme: 'dark' });
  await saveFullPage(page, 'now-playing-dark-phone', { expandMain: false });
  await page.setViewportSize(DESKTOP);
  await saveFullPage(page, 'now-playing-dark-desktop', { expandMain: false });
  await page.emulateMedia({ colorScheme: 'light' });

  // The close button closes it too.
  await view.getByRole('button', { name: 'Close dialog' }).click();
  await expect(view).toBeHidden();
  await expect(opener).toBeFocused();

  // An artist's link leads to their page and closes the view (from another page: the home page).
  await dashboard.nav.getByRole('link', { name: 'Home', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: DUO_ARTIST, exact: true })).toBeHidden();
  await opener.click();
  await view.getByRole('link', { name: DUO_ARTIST, exact: true }).click();
  await expect(view).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: DUO_ARTIST, exact: true })).toBeVisible();
  await expect(barTitle).toHaveText(second);
});
