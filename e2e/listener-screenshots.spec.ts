import { expect, test, type Page } from '@playwright/test';
import { apiSession, logIn, newAccount, registerAccount, type Account } from './support/pages/accounts.js';
import { createPlaylistViaApi } from './support/pages/catalogue-api.js';
import { Dashboard } from './support/pages/dashboard.js';
import { saveFullPage } from './support/pages/screenshots.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';

// Pictures for people to judge (e2e/screenshots/); each shot waits for the content it is meant to show.
const server = useTonearmServer();

let listener: Account;

test.beforeAll(async () => {
  listener = newAccount('viewer');
  await registerAccount(server.baseURL, listener);
  const api = await apiSession(server.baseURL, server.admin);
  await createPlaylistViaApi(api, 'Sunday Morning', 'Chill');
  await createPlaylistViaApi(api, 'Night Drive', 'Mixtape');
  await api.dispose();
});

/** Plays a few songs so "Recently played" has something to show, then pauses. */
async function playSome(dashboard: Dashboard, count: number): Promise<void> {
  const list = await dashboard.openSongs();
  const names = (await dashboard.renderedSongNames(list)).slice(0, count);
  for (const name of names) {
    const row = await dashboard.revealSong(list, name);
    await row.getByRole('button', { name: `Play ${name}`, exact: true }).click();
    await expect(row.getByRole('button', { name: `Pause ${name}`, exact: true })).toBeVisible();
  }
  await dashboard.player.getByRole('button', { name: 'Pause', exact: true }).click();
}

/** Waits until every cover image in view has loaded (or failed to its placeholder). */
async function waitForImages(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(() =>
        Array.from(document.images)
          .filter((img) => img.getBoundingClientRect().top < window.innerHeight)
          .every((img) => img.complete),
      ),
    )
    .toBe(true);
}

test('desktop: home, song list and artist view', async ({ page }) => {
  const dashboard = new Dashboard(page);
  await logIn(page, server.admin);
  await playSome(dashboard, 3);

  await dashboard.nav.getByRole('link', { name: 'Home' }).click();
  await expect(dashboard.songList('Recently played').getByRole('listitem')).toHaveCount(3);
  await expect(dashboard.songList('Songs').getByRole('listitem').first()).toBeVisible();
  await expect(page.getByRole('list', { name: 'Artists' }).getByRole('link').first()).toBeVisible();
  await waitForImages(page);
  await saveFullPage(page, 'desktop-home');

  await dashboard.openSongs();
  await waitForImages(page);
  await saveFullPage(page, 'desktop-song-list');

  const artistSongs = await dashboard.openArtist('Marigold Tapes');
  await expect(artistSongs.getByRole('listitem')).toHaveCount(3);
  await waitForImages(page);
  await saveFullPage(page, 'desktop-artist-view');
});

test('desktop: Add Song form, Confirm dialog and alerts', async ({ page }) => {
  const dashboard = new Dashboard(page);
  await logIn(page, server.admin);
  const list = await dashboard.openSongs();

  await dashboard.addSongTile.click();
  const form = dashboard.dialog('Add Song');
  await expect(form.getByLabel('Artist', { exact: true }).locator('option')).not.toHaveCount(1);
  await saveFullPage(page, 'popup-add-song', { expandMain: false });

  await form.getByRole('button', { name: 'Save' }).click();
  await expect(dashboard.errorAlert('Please upload both song and image files.')).toBeVisible();
  await saveFullPage(page, 'popup-add-song-errors-and-alert', { expandMain: false });
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(form).toBeHidden();

  const [first] = await dashboard.renderedSongNames(list);
  if (first === undefined) throw new Error('The demo catalogue is empty');
  const menu = await dashboard.openSongMenu(await dashboard.revealSong(list, first), first);
  await saveFullPage(page, 'menu-song-options', { expandMain: false });
  await menu.getByRole('menuitem', { name: 'Delete' }).click();
  await expect(dashboard.confirmDialog).toBeVisible();
  await saveFullPage(page, 'popup-confirm', { expandMain: false });
  await dashboard.confirmDialog.getByRole('button', { name: 'Cancel' }).click();

  const playlistMenu = await dashboard.openSongMenu(await dashboard.revealSong(list, first), first);
  await playlistMenu.getByRole('menuitem', { name: 'Playlist +' }).click();
  const popup = dashboard.dialog('Select a Playlist');
  await expect(popup.getByRole('radio')).toHaveCount(2);
  await waitForImages(page);
  await saveFullPage(page, 'popup-select-playlist', { expandMain: false });
  await popup.getByRole('radio', { name: /Night Drive/ }).click();
  await expect(dashboard.successAlert('Song added to playlist')).toBeVisible();
  await saveFullPage(page, 'alert-success', { expandMain: false });
});

test('desktop: Select a Playlist without playlists', async ({ page }) => {
  const dashboard = new Dashboard(page);
  await logIn(page, listener);
  const list = await dashboard.openSongs();
  const [first] = await dashboard.renderedSongNames(list);
  if (first === undefined) throw new Error('The demo catalogue is empty');
  const menu = await dashboard.openSongMenu(await dashboard.revealSong(list, first), first);
  await menu.getByRole('menuitem', { name: 'Playlist +' }).click();
  await expect(dashboard.dialog('Select a Playlist').getByText('Playlist Not Found', { exact: true })).toBeVisible();
  await saveFullPage(page, 'popup-select-playlist-empty', { expandMain: false });
});

test.describe('phone', () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

  test('phone: home, song list and the menu drawer', async ({ page }) => {
    const dashboard = new Dashboard(page);
    await logIn(page, server.admin);
    await playSome(dashboard, 2);

    await page.goto('/dashboard');
    await expect(dashboard.songList('Recently played').getByRole('listitem')).toHaveCount(2);
    await expect(dashboard.songList('Songs').getByRole('listitem').first()).toBeVisible({ timeout: 20_000 });
    await waitForImages(page);
    await saveFullPage(page, 'phone-home');

    await dashboard.openSongs();
    await waitForImages(page);
    await saveFullPage(page, 'phone-song-list');

    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(dashboard.nav).toBeVisible();
    await saveFullPage(page, 'phone-menu-drawer', { expandMain: false });
  });
});
