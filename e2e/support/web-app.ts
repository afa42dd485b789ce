import { expect, type Locator, type Page } from '@playwright/test';
import { apiSession, type Account } from './pages/accounts.js';
import { saveFullPage } from './pages/screenshots.js';

/** Each user's downloaded audio is in the Cache Storage cache `<prefix><user id>` (apps/web/src/lib/offline-audio.ts). */
export const AUDIO_CACHE_PREFIX = 'tonearm-audio-u';

export const DESKTOP = { width: 1440, height: 900 } as const;
export const PHONE = { width: 375, height: 812 } as const;

interface UserJson {
  id: number;
  username: string;
  email: string;
  premium: boolean;
  role: string;
  image: string | null;
}

/** The account's User JSON, found by an admin through GET /api/users?q=. */
export async function findUser(baseURL: string, admin: Account, username: string): Promise<UserJson> {
  const api = await apiSession(baseURL, admin);
  try {
    const response = await api.get(`/api/users?q=${encodeURIComponent(username)}`);
    const { users } = (await response.json()) as { users: UserJson[] };
    const user = users.find((entry) => entry.username === username);
    if (!user) throw new Error(`No user ${username}`);
    return user;
  } finally {
    await api.dispose();
  }
}

/** An administrator grants premium through the API (PUT /api/users/{id} {premium: true}). */
export async function grantPremium(baseURL: string, admin: Account, username: string): Promise<void> {
  const user = await findUser(baseURL, admin, username);
  const api = await apiSession(baseURL, admin);
  try {
    const response = await api.put(`/api/users/${user.id}`, { data: { premium: true } });
    if (!response.ok()) throw new Error(`grant premium: ${response.status()} ${await response.text()}`);
  } finally {
    await api.dispose();
  }
}

/** What GET /api/auth/me says about `account` right now. */
export async function currentUser(baseURL: string, account: Account): Promise<UserJson> {
  const api = await apiSession(baseURL, account);
  try {
    return (await (await api.get('/api/auth/me')).json()) as UserJson;
  } finally {
    await api.dispose();
  }
}

/**
 * Waits until the service worker controls the page (it claims open pages when it activates on the first visit), so
 * downloads go through it and an offline reload is answered by it.
 */
export async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), {
      message: 'the service worker controls the page',
      timeout: 15_000,
    })
    .toBe(true);
}

/** The paths (with query) in the download cache of the user signed in on the page (none when nobody is). */
export function cachedDownloads(page: Page): Promise<string[]> {
  return page.evaluate(async (prefix) => {
    const owner = localStorage.getItem('tonearm.downloadsOwner');
    if (owner === null) return [];
    const cache = await caches.open(`${prefix}${owner}`);
    return (await cache.keys()).map((request) => {
      const url = new URL(request.url);
      return url.pathname + url.search;
    });
  }, AUDIO_CACHE_PREFIX);
}

/** The audio URL path of a song as the page's song list knows it (GET /api/songs through the page's session). */
export async function songLink(page: Page, songName: string): Promise<string> {
  const response = await page.request.get('/api/songs');
  const songs = (await response.json()) as { name: string; link: string }[];
  const song = songs.find((entry) => entry.name === songName);
  if (!song) throw new Error(`No song ${songName}`);
  return new URL(song.link, 'http://x').pathname;
}

/** Clicks a menu item of a song row's three-dots menu. */
export async function chooseSongMenuItem(page: Page, row: Locator, songName: string, item: string): Promise<void> {
  await row.getByRole('button', { name: `More options for ${songName}`, exact: true }).click();
  await page
    .getByRole('menu', { name: `More options for ${songName}`, exact: true })
    .getByRole('menuitem', { name: item, exact: true })
    .click();
}

/**
 * Saves `<name>-desktop.png` (1440 wide) and `<name>-phone.png` (375×812) under e2e/screenshots. `prepare` runs after
 * each resize (e.g. to reopen a popup that the layout change closed); the original viewport is restored afterwards.
 */
export async function screenshotBoth(
  page: Page,
  name: string,
  options: { expandMain?: boolean; prepare?: () => Promise<void> } = {},
): Promise<void> {
  const original = page.viewportSize();
  for (const [suffix, size] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(size);
    await options.prepare?.();
    // Let the layout settle (virtual lists measure on resize).
    await page.waitForTimeout(300);
    await saveFullPage(page, `${name}-${suffix}`, { expandMain: options.expandMain ?? true });
  }
  if (original) await page.setViewportSize(original);
}

/** Fires a keyboard shortcut with nothing focused, as a listener would after clicking an empty part of the page. */
export async function pressShortcut(page: Page, key: string): Promise<void> {
  await page.evaluate(() => {
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
  });
  await page.keyboard.press(key);
}

/** Closes every alert banner, so a screenshot shows the page rather than the last notifications. */
export async function dismissAlerts(page: Page): Promise<void> {
  await page.evaluate(() => {
    document.querySelectorAll<HTMLButtonElement>('button[aria-label="Close alert"]').forEach((button) => {
      button.click();
    });
  });
  await expect(page.getByRole('region', { name: 'Notifications' }).getByRole('button')).toHaveCount(0);
}
