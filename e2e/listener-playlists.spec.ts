import { expect, test } from '@playwright/test';
import { apiSession, logIn, newAccount, registerAccount } from './support/pages/accounts.js';
import { createPlaylistViaApi, listSongs, playlistSongIds } from './support/pages/catalogue-api.js';
import { Dashboard } from './support/pages/dashboard.js';
import { readTimeline, startTimeline, type Presence } from './support/pages/dom-timeline.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';

const server = useTonearmServer();
const SONG = 'Borrowed Sunlight';

test('the playlist popup says "Playlist Not Found" when the user has no playlists', async ({ page }) => {
  const dashboard = new Dashboard(page);
  const listener = newAccount('no_lists');
  await registerAccount(server.baseURL, listener);
  await logIn(page, listener);

  const list = await dashboard.openSongs();
  const menu = await dashboard.openSongMenu(await dashboard.revealSong(list, SONG), SONG);
  await menu.getByRole('menuitem', { name: 'Playlist +' }).click();

  const popup = dashboard.dialog('Select a Playlist');
  await expect(popup.getByText('Playlist Not Found', { exact: true })).toBeVisible();
  await expect(popup.getByRole('link', { name: 'Create a playlist' })).toBeVisible();
  await expect(popup.getByRole('radio')).toHaveCount(0);
  await expect(popup.getByRole('button', { name: 'Add to playlist' })).toBeDisabled();
  await popup.getByRole('button', { name: 'Cancel' }).click();
  await expect(popup).toBeHidden();
});

test('adding a song to a playlist shows the server text and closes the popup about 1 s later', async ({ page }) => {
  const dashboard = new Dashboard(page);
  const listener = newAccount('mixer');
  await registerAccount(server.baseURL, listener);
  const api = await apiSession(server.baseURL, listener);
  const playlistId = await createPlaylistViaApi(api, 'Road Trip');
  await logIn(page, listener);

  const list = await dashboard.openSongs();
  const menu = await dashboard.openSongMenu(await dashboard.revealSong(list, SONG), SONG);
  await menu.getByRole('menuitem', { name: 'Playlist +' }).click();
  const popup = dashboard.dialog('Select a Playlist');
  const choice = popup.getByRole('radio', { name: /Road Trip/ });
  await expect(choice).toBeVisible();

  // Nothing chosen yet.
  await popup.getByRole('button', { name: 'Add to playlist' }).click();
  await expect(dashboard.errorAlert('Please select a playlist.')).toBeVisible();
  await expect(popup).toBeVisible();

  // One click on the playlist adds the song (issue 26): no second step.
  await startTimeline(page, {
    result: { selector: '[role="status"]', text: 'Song added to playlist' },
    popup: { selector: '[role="dialog"]', text: 'Select a Playlist' },
  });
  await choice.click();
  await expect(dashboard.successAlert('Song added to playlist')).toBeVisible();
  await expect(popup).toBeHidden({ timeout: 5000 });

  const timeline = await readTimeline<'result' | 'popup'>(page);
  const closeDelay = msBetween(timeline.result, timeline.popup);
  test.info().annotations.push({ type: 'popup closed after', description: `${Math.round(closeDelay)} ms` });
  expect(closeDelay, 'the popup is still open 500 ms after the result').toBeGreaterThan(500);
  expect(closeDelay, 'the popup is gone 1600 ms after the result').toBeLessThan(1600);

  const songId = (await listSongs(api)).find((song) => song.name === SONG)?.id;
  expect(await playlistSongIds(api, playlistId)).toEqual([songId]);
  await api.dispose();
});

/** From when `from` appeared to when `to` went away. */
function msBetween(from: Presence, to: Presence): number {
  if (from.seenAt === null || to.goneAt === null)
    throw new Error(`incomplete timeline ${JSON.stringify({ from, to })}`);
  return to.goneAt - from.seenAt;
}
