import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { apiSession, logIn, newAccount, registerAccount } from './support/pages/accounts.js';
import { createPlaylistViaApi, playlistSongIds } from './support/pages/catalogue-api.js';
import { Dashboard } from './support/pages/dashboard.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';

const server = useTonearmServer();
const ALBUM = 'Harbour Lights';

interface PlacedSong {
  id: number;
  name: string;
  artistId: number | null;
  artistName: string;
}

let albumId: number;
/** The album's songs in track order. */
let tracks: PlacedSong[];

/** The admin puts three demo songs on a new album, in a track order unlike the catalogue's. */
test.beforeAll(async () => {
  const admin = await apiSession(server.baseURL, server.admin);
  const songs = ((await (await admin.get('/api/songs')).json()) as PlacedSong[]).filter(
    (song) => song.artistId !== null,
  );
  const [first] = songs;
  if (!first) throw new Error('the demo catalogue has no song with an artist');
  const created = await admin.post('/api/albums', { data: { name: ALBUM, artistId: first.artistId, year: 2024 } });
  expect(created.status(), await created.text()).toBe(201);
  albumId = ((await created.json()) as { id: number }).id;
  const chosen = songs.slice(0, 3);
  // Stored as tracks 3, 1, 2: the page must show them by track number.
  for (const [index, song] of chosen.entries()) {
    const trackNumber = [3, 1, 2][index];
    const placed = await admin.put(`/api/songs/${song.id}/album`, { data: { albumId, discNumber: 1, trackNumber } });
    expect(placed.status(), await placed.text()).toBe(200);
  }
  tracks = [chosen[1], chosen[2], chosen[0]].filter((song) => song !== undefined);
  await admin.dispose();
});

function rowNames(page: Page): Promise<string[]> {
  return page
    .getByRole('list', { name: 'Tracks', exact: true })
    .getByRole('listitem')
    .evaluateAll((items) => items.map((item) => item.getAttribute('aria-label') ?? ''));
}

test('an album page lists its tracks in order, plays the album, and adds it to a playlist', async ({ page }) => {
  const dashboard = new Dashboard(page);
  const listener = newAccount('album_fan');
  await registerAccount(server.baseURL, listener);
  const api = await apiSession(server.baseURL, listener);
  const playlistId = await createPlaylistViaApi(api, 'Album Night');
  await logIn(page, listener);

  // From the home page's shelf of recently added albums to the album page.
  const shelf = page.getByRole('list', { name: 'Recently added albums' });
  await shelf.getByRole('link', { name: ALBUM, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/album\\?id=${albumId}$`));
  await expect(page.getByRole('heading', { level: 1, name: ALBUM })).toBeVisible();
  // The header's artist link comes first; each track's artist links to the same page (issue 25).
  await expect(
    dashboard.main.getByRole('link', { name: tracks[0]?.artistName ?? '', exact: true }).first(),
  ).toBeVisible();
  await expect(dashboard.main.getByText('2024')).toBeVisible();
  await expect.poll(() => rowNames(page)).toEqual(tracks.map((song) => song.name));

  const results = await new AxeBuilder({ page }).analyze();
  const critical = results.violations.filter((violation) => violation.impact === 'critical');
  expect(
    critical.map((violation) => ({ id: violation.id, nodes: violation.nodes.map((n) => n.target) })),
    'critical axe violations on the album page',
  ).toEqual([]);

  await page.getByRole('button', { name: 'Play album', exact: true }).click();
  await expect(dashboard.player.locator('.now-playing__name')).toHaveText(tracks[0]?.name ?? '');
  await dashboard.player.getByRole('button', { name: 'Queue', exact: true }).click();
  const nextUp = page.getByRole('region', { name: 'Queue' }).getByRole('list', { name: 'Next up' });
  await expect
    .poll(() =>
      nextUp.getByRole('listitem').evaluateAll((items) => items.map((item) => item.getAttribute('aria-label'))),
    )
    .toEqual(tracks.slice(1).map((song) => song.name));

  await page.getByRole('button', { name: 'Add album to playlist', exact: true }).click();
  const popup = dashboard.dialog('Select a Playlist');
  await popup.getByRole('radio', { name: /Album Night/ }).click();
  await expect(dashboard.successAlert('Added 3 songs to the playlist')).toBeVisible();
  await expect(popup).toBeHidden({ timeout: 5000 });
  expect(await playlistSongIds(api, playlistId)).toEqual(tracks.map((song) => song.id));
  await api.dispose();
});
