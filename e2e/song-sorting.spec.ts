import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiSession, logIn, newAccount, registerAccount, type Account } from './support/pages/accounts.js';
import { listSongs, type SongSummary } from './support/pages/catalogue-api.js';
import { Dashboard } from './support/pages/dashboard.js';
import { saveFullPage } from './support/pages/screenshots.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';

const server = useTonearmServer();

let listener: Account;
let catalogue: (SongSummary & { durationMs: number | null })[];

test.beforeAll(async () => {
  listener = newAccount('sorter');
  await registerAccount(server.baseURL, listener);
  const api = await apiSession(server.baseURL, listener);
  catalogue = (await listSongs(api)) as typeof catalogue;
  await api.dispose();
  expect(catalogue.length).toBeGreaterThan(3);
});

/** The ids the server's sort gives (song-pages.repository.ts): the key, then the id, both in the direction. */
function sortedIds(key: (song: (typeof catalogue)[number]) => string | number, direction: 'asc' | 'desc'): number[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...catalogue]
    .sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      return sign * (x < y ? -1 : x > y ? 1 : a.id - b.id);
    })
    .map((song) => song.id);
}

const nameOf = (id: number) => catalogue.find((song) => song.id === id)?.name ?? '';

/** The names of the first `count` rows of the list. */
async function firstRows(list: Locator, count: number): Promise<string[]> {
  const rows = list.getByRole('listitem');
  await expect(rows.nth(count - 1)).toBeVisible();
  const names: string[] = [];
  for (let i = 0; i < count; i += 1) names.push((await rows.nth(i).getAttribute('aria-label')) ?? '');
  return names;
}

const header = (page: Page, name: string) => page.getByRole('columnheader', { name, exact: true });

test('the catalogue sorts by title and by duration from its headers, keeps the choice, and shuffles again', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const dashboard = new Dashboard(page);
  await logIn(page, listener);
  const list = await dashboard.openSongs();
  const sortBy = dashboard.main.getByRole('combobox', { name: 'Sort by' });
  await expect(sortBy).toHaveValue('list');
  const count = Math.min(5, catalogue.length);

  await header(page, 'Title').getByRole('button').click();
  await expect(header(page, 'Title')).toHaveAttribute('aria-sort', 'ascending');
  const byTitle = sortedIds((song) => song.name.toLowerCase(), 'asc')
    .slice(0, count)
    .map(nameOf);
  await expect.poll(() => firstRows(list, count)).toEqual(byTitle);

  // Again: Z to A, from the keyboard.
  await header(page, 'Title').getByRole('button').focus();
  await page.keyboard.press('Enter');
  await expect(header(page, 'Title')).toHaveAttribute('aria-sort', 'descending');
  const byTitleDown = sortedIds((song) => song.name.toLowerCase(), 'desc')
    .slice(0, count)
    .map(nameOf);
  await expect.poll(() => firstRows(list, count)).toEqual(byTitleDown);

  await header(page, 'Duration').getByRole('button').click();
  await expect(header(page, 'Duration')).toHaveAttribute('aria-sort', 'ascending');
  await expect(header(page, 'Title')).toHaveAttribute('aria-sort', 'none');
  const byDuration = sortedIds((song) => song.durationMs ?? -1, 'asc')
    .slice(0, count)
    .map(nameOf);
  await expect.poll(() => firstRows(list, count)).toEqual(byDuration);
  await saveFullPage(page, 'songs-sorted-by-duration-desktop');

  await page.reload();
  await expect(list).toBeVisible({ timeout: 20_000 });
  await expect(header(page, 'Duration')).toHaveAttribute('aria-sort', 'ascending');
  await expect(sortBy).toHaveValue('duration:asc');
  await expect.poll(() => firstRows(list, count)).toEqual(byDuration);

  await sortBy.selectOption({ label: 'Shuffle' });
  await expect(header(page, 'Duration')).toHaveAttribute('aria-sort', 'none');
  await page.reload();
  await expect(list).toBeVisible({ timeout: 20_000 });
  await expect(sortBy).toHaveValue('list');
  await expect(page.getByRole('columnheader').and(page.locator('[aria-sort="ascending"]'))).toHaveCount(0);
});

test('on a phone the headers are one Sort by select, a 44 px target', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const dashboard = new Dashboard(page);
  await logIn(page, listener);
  const list = await dashboard.openSongs();
  const sortBy = dashboard.main.getByRole('combobox', { name: 'Sort by' });
  await expect(page.getByRole('columnheader', { name: 'Title', exact: true })).toBeHidden();
  const box = await sortBy.boundingBox();
  expect(box?.height).toBeGreaterThanOrEqual(44);
  await sortBy.selectOption({ label: 'Title (A to Z)' });
  const byTitle = sortedIds((song) => song.name.toLowerCase(), 'asc')
    .slice(0, 3)
    .map(nameOf);
  await expect.poll(() => firstRows(list, 3)).toEqual(byTitle);
  await saveFullPage(page, 'songs-sorted-by-title-phone');
  await sortBy.selectOption({ label: 'Shuffle' });
});

test('an album and a playlist sort from their headers (screenshots), the playlist keeping its own order', async ({
  page,
}) => {
  const api = await apiSession(server.baseURL, listener);
  let albumId: number;
  let playlistId: number;
  try {
    const albums = (await (await api.get('/api/albums?limit=1')).json()) as { items: { id: number }[] };
    albumId = albums.items[0]?.id ?? 0;
    const created = await api.post('/api/playlists', { data: { name: 'Sorted', type: 'Mix', isPublic: false } });
    expect(created.status()).toBe(201);
    playlistId = ((await created.json()) as { id: number }).id;
    for (const song of catalogue.slice(0, 5)) {
      expect((await api.put(`/api/playlists/${playlistId}/songs/${song.id}`)).ok()).toBe(true);
    }
  } finally {
    await api.dispose();
  }
  expect(albumId).toBeGreaterThan(0);
  await logIn(page, listener);
  for (const [width, height, device] of [
    [1440, 900, 'desktop'],
    [390, 844, 'phone'],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(`/dashboard/album?id=${albumId}`);
    const albumSort = page.getByRole('main').getByRole('combobox', { name: 'Sort by' });
    await albumSort.selectOption({ label: 'Title (Z to A)' });
    await expect(albumSort).toHaveValue('title:desc');
    await saveFullPage(page, `album-sorted-by-title-${device}`);
    await albumSort.selectOption({ label: 'Album order' });

    await page.goto(`/dashboard/playlist?id=${playlistId}`);
    const list = page.getByRole('list', { name: 'Songs in Sorted', exact: true });
    await expect(list.getByRole('button', { name: /^Reorder / }).first()).toBeVisible();
    const playlistSort = page.getByRole('main').getByRole('combobox', { name: 'Sort by' });
    await playlistSort.selectOption({ label: 'Title (A to Z)' });
    const inPlaylist = catalogue.slice(0, 5);
    const byTitle = [...inPlaylist]
      .sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1))
      .map((song) => song.name);
    await expect.poll(() => firstRows(list, 5)).toEqual(byTitle);
    await expect(list.getByRole('button', { name: /^Reorder / })).toHaveCount(0);
    await expect(page.getByRole('note')).toContainText('Playlist order');
    await saveFullPage(page, `playlist-sorted-by-title-${device}`);
    await playlistSort.selectOption({ label: 'Playlist order' });
    await expect.poll(() => firstRows(list, 5)).toEqual(inPlaylist.map((song) => song.name));
  }
});

test('plays recorded server-side put their song first when sorted by plays, on desktop and on a phone', async ({
  page,
}) => {
  // A song the other orders do not put first: the newest but one, played more than any other.
  const byId = [...catalogue].sort((a, b) => a.id - b.id);
  const favourite = byId[byId.length - 2] ?? byId[0];
  if (favourite === undefined) throw new Error('no songs');
  /** Plays the favourite (through the API, as the player records them) past every other song; answers the counts. */
  async function playFavourite(): Promise<{ most: number; least: number }> {
    const api = await apiSession(server.baseURL, listener);
    try {
      const before = (await (await api.get('/api/songs')).json()) as { id: number; plays: number }[];
      const most = Math.max(...before.map((song) => song.plays)) + 2;
      const own = before.find((song) => song.id === favourite?.id)?.plays ?? 0;
      for (let play = own; play < most; play += 1) {
        expect((await api.post('/api/plays', { data: { songId: favourite?.id } })).status()).toBe(204);
      }
      return { most, least: Math.min(...before.filter((song) => song.id !== favourite?.id).map((song) => song.plays)) };
    } finally {
      await api.dispose();
    }
  }
  const { most, least } = await playFavourite();

  await page.setViewportSize({ width: 1440, height: 900 });
  const dashboard = new Dashboard(page);
  await logIn(page, listener);
  const list = await dashboard.openSongs();
  await header(page, 'Plays').getByRole('button').click();
  // Most played first on the first click.
  await expect(header(page, 'Plays')).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(() => firstRows(list, 1)).toEqual([favourite.name]);
  await expect(list.getByRole('listitem').first().locator('.song-row__plays')).toHaveText(String(most));
  await saveFullPage(page, 'songs-sorted-by-plays-desktop');
  await header(page, 'Plays').getByRole('button').click();
  await expect(header(page, 'Plays')).toHaveAttribute('aria-sort', 'ascending');
  await expect(list.getByRole('listitem').first().locator('.song-row__plays')).toHaveText(String(least));
  await expect.poll(() => firstRows(list, 1)).not.toEqual([favourite.name]);

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(header(page, 'Plays')).toBeHidden();
  const sortBy = dashboard.main.getByRole('combobox', { name: 'Sort by' });
  await sortBy.selectOption({ label: 'Plays (most played first)' });
  await expect.poll(() => firstRows(list, 1)).toEqual([favourite.name]);
  await saveFullPage(page, 'songs-sorted-by-plays-phone');
  await sortBy.selectOption({ label: 'Shuffle' });
});
