import { expect, test, type Page } from '@playwright/test';
import { apiSession, logIn } from './support/pages/accounts.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';

// Issue 26: every page fits its width, from a phone to a wide desktop: no horizontal scroll anywhere.
const server = useTonearmServer();

const WIDTHS = [390, 768, 1280, 1440, 1920] as const;
const HEIGHT = 900;

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

/** Each address at each width, once its main heading shows: answers what overflowed where. */
async function overflowsOf(page: Page, paths: readonly string[]): Promise<string[]> {
  const failures: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: HEIGHT });
    for (const path of paths) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      // Lists and covers settle after the heading.
      await page.waitForLoadState('networkidle');
      for (const overflow of await horizontalScrolls(page)) failures.push(`${width} px ${path}: ${overflow}`);
    }
  }
  return failures;
}

test('every page fits its width at 390, 768, 1280, 1440 and 1920 px, signed out and as an administrator', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const api = await apiSession(server.baseURL, server.admin);
  let albumId: number;
  let playlistId: number;
  try {
    const albums = (await (await api.get('/api/albums?limit=1')).json()) as { items: { id: number }[] };
    albumId = albums.items[0]?.id ?? 0;
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

  const signedOut = await overflowsOf(page, ['/', '/no-such-page']);
  await logIn(page, server.admin);
  const signedIn = await overflowsOf(page, [
    '/dashboard',
    '/dashboard/songs',
    '/dashboard/artist',
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
  ]);
  expect([...signedOut, ...signedIn]).toEqual([]);
});
