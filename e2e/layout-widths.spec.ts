import { expect, test, type Page } from '@playwright/test';
import { apiSession, logIn } from './support/pages/accounts.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';

// Issue 26: every page fits its width, from a phone to a wide desktop: no horizontal scroll anywhere.
const server = useTonearmServer();

const PHONE_WIDTH = 390;
const WIDTHS = [PHONE_WIDTH, 768, 1280, 1440, 1920] as const;
const HEIGHT = 844;

/**
 * What scrolls sideways on the page (the document, or any element whose overflow lets it scroll), and song rows whose
 * cells do not fit on their line.
 */
function horizontalScrolls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const name = (element: Element): string => {
      const id = element.id ? `#${element.id}` : '';
      const classes = Array.from(element.classList)
        .slice(0, 2)
        .map((c) => `.${c}`);
      const label = element.getAttribute('aria-label');
      return `${element.tagName.toLowerCase()}${id}${classes.join('')}${label ? `[${label}]` : ''}`;
    };
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > window.innerWidth + 1)
      found.push(`the page: ${root.scrollWidth} px in ${window.innerWidth}`);
    for (const element of Array.from(document.querySelectorAll('body *'))) {
      const { overflowX } = getComputedStyle(element);
      if (overflowX !== 'auto' && overflowX !== 'scroll') continue;
      if (element.scrollWidth > element.clientWidth + 1) {
        found.push(`${name(element)}: ${element.scrollWidth} px in ${element.clientWidth}`);
      }
    }
    // A song row's cells stay on its one line (a grid with fewer columns than cells wraps the last ones onto the
    // next row's place: the playlist's "…" menu once sat under the next row's drag handle).
    for (const row of Array.from(document.querySelectorAll('.song-row'))) {
      const box = row.getBoundingClientRect();
      for (const cell of Array.from(row.children)) {
        const inner = cell.getBoundingClientRect();
        if (inner.height === 0) continue;
        if (inner.bottom > box.bottom + 1 || inner.top < box.top - 1) {
          found.push(
            `a cell (${name(cell)}) of ${name(row)}[${row.getAttribute('aria-label') ?? ''}] is outside its row`,
          );
          break;
        }
      }
    }
    return found;
  });
}

/** The smallest a control may be on a phone, either way (issue 26; WCAG 2.5.5's target size). */
const TAP_MIN = 44;

/**
 * Visible controls smaller than TAP_MIN either way. Links inside a line of text are left out (WCAG's inline
 * exception), and so is what is not shown: visually hidden or moved out of sight until focused (the skip link), or off
 * screen sideways (a closed drawer).
 */
function smallControls(page: Page): Promise<string[]> {
  return page.evaluate((min) => {
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="slider"], [role="tab"], label:has(> input[type="file"])';
    const found: string[] = [];
    for (const element of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
      if (!element.checkVisibility({ checkOpacity: true, visibilityProperty: true })) continue;
      // An input inside its label: the label is what a finger hits (a checkbox's row, a search field's box).
      const target = element instanceof HTMLInputElement ? (element.closest('label') ?? element) : element;
      const box = target.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) continue;
      if (box.right <= 0 || box.left >= window.innerWidth || box.bottom <= 0) continue;
      // Text links inside a line of text (an artist's name under a title, a link in a sentence) are WCAG's inline
      // exception: they keep the size of the text.
      const inline = getComputedStyle(element).display === 'inline';
      if (inline && element.closest('p, li, td, dd, .song-artists') !== null) continue;
      if (box.width + 0.5 < min || box.height + 0.5 < min) {
        const label = element.getAttribute('aria-label') ?? element.textContent.trim().slice(0, 30);
        found.push(`${element.tagName.toLowerCase()} "${label}" ${Math.round(box.width)}×${Math.round(box.height)}`);
      }
    }
    return [...new Set(found)];
  }, TAP_MIN);
}

/**
 * Each address, loaded once at the phone width (its heading shown, its skeletons gone), then resized through every
 * width (the layout answers a resize as it answers a load): answers what overflowed where.
 */
async function overflowsOf(page: Page, paths: readonly string[]): Promise<string[]> {
  const failures: string[] = [];
  for (const path of paths) {
    await page.setViewportSize({ width: PHONE_WIDTH, height: HEIGHT });
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(page.locator('.skeleton, [data-testid="song-skeleton"]')).toHaveCount(0);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: HEIGHT });
      // Two frames: the resize's layout, and what reacted to it (a list measuring its rows).
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      for (const overflow of await horizontalScrolls(page)) failures.push(`${width} px ${path}: ${overflow}`);
      if (width === PHONE_WIDTH) {
        for (const control of await smallControls(page)) failures.push(`${width} px ${path}: small control ${control}`);
      }
    }
  }
  return failures;
}

test('every page fits its width at 390, 768, 1280, 1440 and 1920 px, and every control on a 390×844 phone is at least 44×44 px, signed out and as an administrator', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const api = await apiSession(server.baseURL, server.admin);
  let albumId: number;
  let artistId: number;
  let playlistId: number;
  try {
    const albums = (await (await api.get('/api/albums?limit=1')).json()) as { items: { id: number }[] };
    albumId = albums.items[0]?.id ?? 0;
    const artists = (await (await api.get('/artists')).json()) as { id: number }[];
    artistId = artists[0]?.id ?? 0;
    const songs = (await (await api.get('/api/songs')).json()) as { id: number }[];
    const created = await api.post('/api/playlists', {
      data: { name: 'A playlist with a rather long name to see where it wraps', type: 'Mix', isPublic: false },
    });
    expect(created.status()).toBe(201);
    playlistId = ((await created.json()) as { id: number }).id;
    for (const song of songs.slice(0, 6)) {
      expect((await api.put(`/api/playlists/${playlistId}/songs/${song.id}`)).ok()).toBe(true);
    }
  } finally {
    await api.dispose();
  }
  expect(albumId).toBeGreaterThan(0);
  expect(artistId).toBeGreaterThan(0);

  const signedOut = await overflowsOf(page, ['/', '/no-such-page']);
  await logIn(page, server.admin);
  const signedIn = await overflowsOf(page, [
    '/dashboard',
    '/dashboard/songs',
    '/dashboard/artist',
    `/dashboard/artist/${artistId}`,
    '/dashboard/artist/999999',
    '/dashboard/search',
    '/dashboard/playlist',
    `/dashboard/playlist?id=${playlistId}`,
    '/dashboard/create-playlist',
    '/dashboard/downloaded',
    '/dashboard/payment',
    '/dashboard/user-list',
    `/dashboard/album?id=${albumId}`,
    '/dashboard/libraries',
    '/dashboard/folders',
    '/dashboard/no-such-page',
    `/dashboard/create-playlist?edit=${playlistId}`,
  ]);
  expect([...signedOut, ...signedIn, ...(await openedOnAPhone(page))]).toEqual([]);
});

/**
 * On a phone, what only opens on demand: a song's menu, the queue of a song playing, and the Now playing view (which
 * is then resized through every width, open).
 */
async function openedOnAPhone(page: Page): Promise<string[]> {
  await page.setViewportSize({ width: PHONE_WIDTH, height: HEIGHT });
  await page.goto('/dashboard/songs');
  const row = page.getByRole('list', { name: 'Songs', exact: true }).getByRole('listitem').first();
  const name = (await row.getAttribute('aria-label')) ?? '';
  const failures: string[] = [];
  await row.getByRole('button', { name: `More options for ${name}`, exact: true }).click();
  await expect(page.getByRole('menu', { name: `More options for ${name}`, exact: true })).toBeVisible();
  for (const control of await smallControls(page)) failures.push(`a song's menu: small control ${control}`);
  await page.keyboard.press('Escape');
  await row.getByRole('button', { name: `Play ${name}`, exact: true }).click();
  await page.getByRole('region', { name: 'Player' }).getByRole('button', { name: 'Queue', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Queue' })).toBeVisible();
  for (const control of await smallControls(page)) failures.push(`the queue: small control ${control}`);
  await page.getByRole('button', { name: 'Close queue' }).click();
  await page.getByRole('region', { name: 'Player' }).getByRole('button', { name: 'Now playing', exact: true }).click();
  const view = page.getByRole('dialog', { name: 'Now playing', exact: true });
  await expect(view.getByRole('heading', { name, exact: true })).toBeVisible();
  for (const control of await smallControls(page)) failures.push(`Now playing: small control ${control}`);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: HEIGHT });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    for (const overflow of await horizontalScrolls(page)) failures.push(`${width} px Now playing: ${overflow}`);
  }
  return failures;
}
