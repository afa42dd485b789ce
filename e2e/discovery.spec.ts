import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiSession, logIn, newAccount, registerAccount } from './support/pages/accounts.js';
import { listSongs, type SongSummary } from './support/pages/catalogue-api.js';
import { Dashboard } from './support/pages/dashboard.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';

const server = useTonearmServer();
const ALBUM = 'Five Star Night';

let albumId: number;
let track: SongSummary;

/** The admin puts one demo song on a new album. */
test.beforeAll(async () => {
  const admin = await apiSession(server.baseURL, server.admin);
  const songs = (await listSongs(admin)) as (SongSummary & { artistId: number | null })[];
  const first = songs.find((song) => song.artistId !== null);
  if (!first) throw new Error('the demo catalogue has no song with an artist');
  const created = await admin.post('/api/albums', { data: { name: ALBUM, artistId: first.artistId } });
  expect(created.status(), await created.text()).toBe(201);
  albumId = ((await created.json()) as { id: number }).id;
  const placed = await admin.put(`/api/songs/${first.id}/album`, { data: { albumId, discNumber: 1, trackNumber: 1 } });
  expect(placed.status(), await placed.text()).toBe(200);
  track = first;
  await admin.dispose();
});

const stars = (page: Page, name: string): Locator => page.getByRole('group', { name: `Rating of ${name}` });

/** The song's Details (from its row's menu), with its stars. */
async function openDetails(page: Page, songName: string): Promise<Locator> {
  await page
    .getByRole('button', { name: `More options for ${songName}`, exact: true })
    .first()
    .click();
  await page.getByRole('menuitem', { name: 'Details' }).click();
  return page.getByRole('dialog', { name: songName });
}

test('rate an album and a song, see the stars after a reload, and sort the songs by rating', async ({ page }) => {
  const dashboard = new Dashboard(page);
  const listener = newAccount('star_giver');
  await registerAccount(server.baseURL, listener);
  await logIn(page, listener);

  await page.goto(`/dashboard/album?id=${albumId}`);
  await expect(page.getByRole('heading', { level: 1, name: ALBUM })).toBeVisible();
  const albumStars = stars(page, ALBUM);
  await expect(albumStars).toContainText('Not rated');
  await albumStars.getByRole('button', { name: 'Rate 5 stars' }).click();
  await expect(albumStars.getByRole('button', { name: 'Clear the rating (5 stars)' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  // The track, from the keyboard: Tab to the fourth star, Enter.
  const details = await openDetails(page, track.name);
  const songStars = stars(page, track.name);
  await songStars.getByRole('button', { name: 'Rate 3 stars' }).focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(songStars).toContainText('Rated 4 stars of 5');
  await page.keyboard.press('Escape');
  await expect(details).toBeHidden();

  // Saved on the server: a reload shows both.
  await page.reload();
  await expect(stars(page, ALBUM).getByRole('button', { name: 'Clear the rating (5 stars)' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await openDetails(page, track.name);
  await expect(stars(page, track.name)).toContainText('Rated 4 stars of 5');
  await page.keyboard.press('Escape');

  // The catalogue by rating: the one rated song first.
  const list = await dashboard.openSongs();
  await dashboard.main.getByRole('combobox', { name: 'Sort by' }).selectOption('rating:desc');
  await expect(list.getByRole('listitem').first()).toHaveAttribute('aria-label', track.name);
  await dashboard.main.getByRole('combobox', { name: 'Sort by' }).selectOption('rating:asc');
  await expect(list.getByRole('listitem').first()).not.toHaveAttribute('aria-label', track.name);
});

test('build a smart playlist in the editor: live count, a bad rule named, the chosen songs played', async ({
  page,
}) => {
  const dashboard = new Dashboard(page);
  const listener = newAccount('rule_maker');
  await registerAccount(server.baseURL, listener);
  const api = await apiSession(server.baseURL, listener);
  const rated = await api.put(`/api/songs/${track.id}/rating`, { data: { rating: 5 } });
  expect(rated.status(), await rated.text()).toBe(204);
  await api.dispose();
  await logIn(page, listener);

  await page.goto('/dashboard/playlist');
  await dashboard.main.getByRole('link', { name: 'New smart playlist' }).click();
  const form = page.getByRole('form', { name: 'New smart playlist' });
  await form.getByLabel('Name').fill('My five stars');
  await form.getByLabel('Rules, rule 1 field').selectOption({ label: 'My rating' });
  await form.getByLabel('Rules, rule 1 operator').selectOption({ label: 'is at least' });
  const preview = form.getByRole('status', { name: 'Preview' });
  // An empty number is a rule the server names.
  await expect(preview).toHaveText('rules[0]: rating needs a number');
  await form.getByLabel('Rules, rule 1 value').fill('4');
  await expect(preview).toHaveText(/^1 song · /);
  await form.getByRole('button', { name: 'Create smart playlist' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'My five stars' })).toBeVisible();
  await expect(dashboard.main.getByText('Private smart playlist')).toBeVisible();
  const songs = dashboard.main.getByRole('list', { name: 'Songs in My five stars' });
  await expect(songs.getByRole('listitem')).toHaveCount(1);
  await expect(songs.getByRole('listitem').first()).toHaveAttribute('aria-label', track.name);
  await dashboard.main.getByRole('button', { name: 'Play My five stars' }).click();
  await expect(dashboard.player.locator('.now-playing__name')).toHaveText(track.name);
  // Its rules, not a song picker, are what its edit button opens.
  await dashboard.main.getByRole('link', { name: 'Edit rules of My five stars' }).click();
  await expect(page.getByRole('form', { name: 'Edit smart playlist' }).getByLabel('Rules, rule 1 value')).toHaveValue(
    '4',
  );
});

test('start a radio from a song: the song plays first and similar songs follow in the queue', async ({ page }) => {
  const dashboard = new Dashboard(page);
  const listener = newAccount('radio_fan');
  await registerAccount(server.baseURL, listener);
  await logIn(page, listener);
  const row = await dashboard.revealSong(await dashboard.openSongs(), track.name);
  const menu = await dashboard.openSongMenu(row, track.name);
  await menu.getByRole('menuitem', { name: 'Start radio' }).click();
  await expect(dashboard.player.locator('.now-playing__name')).toHaveText(track.name);
  await dashboard.player.getByRole('button', { name: 'Queue', exact: true }).click();
  const nextUp = page.getByRole('region', { name: 'Queue' }).getByRole('list', { name: 'Next up' });
  const upcoming = () =>
    nextUp.getByRole('listitem').evaluateAll((items) => items.map((item) => item.getAttribute('aria-label') ?? ''));
  await expect.poll(async () => (await upcoming()).length).toBeGreaterThan(0);
  // No song twice (the server's rules), and never the seed again right after it.
  const names = await upcoming();
  expect(names).not.toContain(track.name);
});
