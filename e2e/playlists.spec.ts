import { resolve } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiSession, logIn, newAccount, registerAccount, type Account } from './support/pages/accounts.js';
import { Dashboard } from './support/pages/dashboard.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';
import { chooseSongMenuItem, dismissAlerts, screenshotBoth } from './support/web-app.js';

const server = useTonearmServer();
/** Any PNG will do as a cover: the app's own icon. */
const COVER = resolve(import.meta.dirname, '../apps/web/public/pwa-512.png');

let owner: Account;

test.beforeAll(async () => {
  owner = newAccount('curator');
  await registerAccount(server.baseURL, owner);
});

function names(list: Locator): Promise<string[]> {
  return list.getByRole('listitem').evaluateAll((items) => items.map((item) => item.getAttribute('aria-label') ?? ''));
}

async function pick(page: Page, query: string, song: string): Promise<void> {
  await page.getByLabel('Find songs').fill(query);
  await page
    .getByRole('list', { name: 'Search results' })
    .getByRole('button', { name: `Add ${song}`, exact: true })
    .click();
}

/** Drags a row's handle by `rows` rows (negative: up), with the pointer, in small steps like a hand would. */
async function dragHandle(page: Page, handle: Locator, rows: number): Promise<void> {
  const box = await handle.boundingBox();
  if (!box) throw new Error('handle not visible');
  const row = await handle.locator('xpath=ancestor::*[@data-sortable-item][1]').boundingBox();
  const step = row?.height ?? 64;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x, y + rows * step, { steps: 12 });
  await page.mouse.up();
}

test('create, fill, reorder (keyboard and drag), edit, play and delete a playlist', async ({ page }) => {
  const dashboard = new Dashboard(page);
  await logIn(page, owner);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Create playlist' }).click();
  const form = page.getByRole('form', { name: 'Create playlist' });
  await form.getByLabel('Name').fill('Road trip');
  await form.getByLabel('Type').fill('Driving');
  await form.getByLabel('Cover image').setInputFiles(COVER);
  await form.getByRole('checkbox', { name: /^Public/ }).check();
  await pick(page, 'tide hymn', 'Low Tide Hymn');
  await pick(page, 'ferry', 'Night Ferry');
  await pick(page, 'glass', 'Glasshouse');
  const picked = page.getByRole('list', { name: 'Songs in this playlist' });
  expect(await names(picked)).toEqual(['Low Tide Hymn', 'Night Ferry', 'Glasshouse']);
  await screenshotBoth(page, 'create-playlist');
  await form.getByRole('button', { name: 'Create playlist' }).click();

  await expect(page).toHaveURL(/\/dashboard\/playlist\?id=\d+$/);
  await expect(dashboard.successAlert('Playlist “Road trip” created')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Road trip' })).toBeVisible();
  await expect(page.getByText('Public playlist')).toBeVisible();
  const songs = dashboard.songList('Songs in Road trip');
  await expect.poll(() => names(songs)).toEqual(['Low Tide Hymn', 'Night Ferry', 'Glasshouse']);

  // Keyboard: focus a handle, ArrowUp moves the song up one place and the handle keeps focus.
  const glasshouseHandle = songs.getByRole('button', { name: 'Reorder Glasshouse' });
  await glasshouseHandle.focus();
  await page.keyboard.press('ArrowUp');
  await expect.poll(() => names(songs)).toEqual(['Low Tide Hymn', 'Glasshouse', 'Night Ferry']);
  await expect(glasshouseHandle).toBeFocused();
  await expect(page.getByText('Glasshouse moved to position 2 of 3')).toBeAttached();

  // Pointer: drag the last song to the top.
  await dragHandle(page, songs.getByRole('button', { name: 'Reorder Night Ferry' }), -2);
  await expect.poll(() => names(songs)).toEqual(['Night Ferry', 'Low Tide Hymn', 'Glasshouse']);
  // The order is the server's now, not just the screen's.
  await page.reload();
  await expect.poll(() => names(songs)).toEqual(['Night Ferry', 'Low Tide Hymn', 'Glasshouse']);

  await chooseSongMenuItem(
    page,
    songs.getByRole('listitem', { name: 'Low Tide Hymn' }),
    'Low Tide Hymn',
    'Remove from playlist',
  );
  await expect(dashboard.successAlert('Song removed from playlist')).toBeVisible();
  await expect.poll(() => names(songs)).toEqual(['Night Ferry', 'Glasshouse']);

  // Edit: rename, add a song, make it private.
  await page.getByRole('link', { name: 'Edit playlist Road trip' }).click();
  const edit = page.getByRole('form', { name: 'Edit playlist' });
  await expect(edit.getByLabel('Name')).toHaveValue('Road trip');
  await expect(edit.getByLabel('Type')).toHaveValue('Driving');
  expect(await names(page.getByRole('list', { name: 'Songs in this playlist' }))).toEqual([
    'Night Ferry',
    'Glasshouse',
  ]);
  await edit.getByLabel('Name').fill('Road trip 2026');
  await pick(page, 'paper kites', 'Paper Kites');
  await edit.getByRole('checkbox', { name: /^Public/ }).uncheck();
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(dashboard.successAlert('Playlist “Road trip 2026” saved')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Road trip 2026' })).toBeVisible();
  await expect(page.getByText('Private playlist')).toBeVisible();
  const renamed = dashboard.songList('Songs in Road trip 2026');
  await expect.poll(() => names(renamed)).toEqual(['Night Ferry', 'Glasshouse', 'Paper Kites']);

  // Play all starts at the first song.
  await page.getByRole('button', { name: 'Play Road trip 2026' }).click();
  await expect(dashboard.player.getByText('Night Ferry', { exact: true })).toBeVisible();
  await expect(dashboard.player.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  await dashboard.player.getByRole('button', { name: 'Pause', exact: true }).click();
  await dismissAlerts(page);
  await screenshotBoth(page, 'playlist-detail');

  await page.getByRole('link', { name: 'All playlists' }).click();
  const grid = page.getByRole('list', { name: 'Playlists', exact: true });
  await expect(grid.getByRole('link', { name: 'Road trip 2026' })).toBeVisible();
  await screenshotBoth(page, 'playlists');

  // Delete, confirmed.
  await grid.getByRole('link', { name: 'Road trip 2026' }).click();
  await page.getByRole('button', { name: 'Delete playlist Road trip 2026' }).click();
  await expect(dashboard.confirmDialog).toContainText('Delete the playlist “Road trip 2026”?');
  await dashboard.confirmDialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/dashboard\/playlist$/);
  await expect(dashboard.successAlert('Playlist “Road trip 2026” deleted')).toBeVisible();
  await expect(page.getByText('No playlists yet')).toBeVisible();
  const api = await apiSession(server.baseURL, owner);
  expect(await (await api.get('/api/playlists')).json()).toEqual([]);
  await api.dispose();
});

test('admins list every playlist; search answers songs, artists and playlists as you type', async ({ page }) => {
  const api = await apiSession(server.baseURL, owner);
  const songs = (await (await api.get('/api/songs')).json()) as { id: number; name: string }[];
  const idOf = (name: string): number => songs.find((song) => song.name === name)?.id ?? 0;
  for (const playlist of [
    { name: 'Sunday slow', isPublic: true, songs: [idOf('Low Tide Hymn'), idOf('Clockwork Garden')] },
    { name: 'Secret mix', isPublic: false, songs: [idOf('Night Ferry')] },
  ]) {
    const response = await api.post('/api/playlists', { data: { ...playlist, type: 'Mix' } });
    expect(response.status()).toBe(201);
  }
  await api.dispose();

  await logIn(page, server.admin);
  await page.goto('/dashboard/playlist');
  const grid = page.getByRole('list', { name: 'Playlists', exact: true });
  await expect(grid.getByRole('link', { name: 'Sunday slow' })).toBeVisible();
  await expect(grid.getByRole('link', { name: 'Secret mix' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).click();
  // Search is a page of its own, titled so (issue 26).
  await expect(page).toHaveURL(/\/dashboard\/search$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Search', exact: true })).toBeVisible();
  await expect(page).toHaveTitle('Search · Tonearm');
  const box = page.getByLabel('Search songs, artists and playlists');
  await box.pressSequentially('slow', { delay: 40 });
  await expect(page).toHaveURL(/q=slow/);
  const results = {
    artists: page.getByRole('list', { name: 'Artists' }),
    playlists: page.getByRole('list', { name: 'Playlists' }),
    songs: page.getByRole('list', { name: 'Songs', exact: true }),
  };
  await expect(results.artists.getByRole('link', { name: 'Slow Tide Ensemble' })).toBeVisible();
  await expect(results.playlists.getByRole('link', { name: 'Sunday slow' })).toBeVisible();
  await expect(results.songs.getByRole('listitem', { name: 'Low Tide Hymn' })).toBeVisible();
  await screenshotBoth(page, 'search');

  // While the next answer is on its way, the results on screen stay, with no loader in their place.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const isSearch = (url: URL): boolean => url.pathname === '/api/search';
  await page.route(isSearch, async (route) => {
    await held;
    await route.continue();
  });
  await box.fill('ferry');
  await expect(page.getByText('Searching…', { exact: true })).toBeVisible();
  await page.waitForTimeout(600);
  await expect(results.artists.getByRole('link', { name: 'Slow Tide Ensemble' })).toBeVisible();
  await expect(results.songs.getByRole('listitem', { name: 'Low Tide Hymn' })).toBeVisible();
  await expect(page.locator('.route-loader')).toHaveCount(0);
  release();
  await expect(page.getByText('Results for “ferry”', { exact: true })).toBeVisible();
  await expect(page.getByText('Searching…', { exact: true })).toHaveCount(0);
  await page.unroute(isSearch);
  await expect(results.songs.getByRole('listitem')).toHaveCount(1);
  await expect(results.songs.getByRole('listitem', { name: 'Night Ferry' })).toBeVisible();
  await expect(results.playlists).toHaveCount(0);
});
