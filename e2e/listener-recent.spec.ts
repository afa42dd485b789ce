import { expect, test, type Page } from '@playwright/test';
import { logIn, newAccount, registerAccount } from './support/pages/accounts.js';
import { Dashboard } from './support/pages/dashboard.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';

const server = useTonearmServer();

/** The names in the `song` local-storage key (recent songs), in stored order. */
function storedRecentNames(page: Page): Promise<string[] | null> {
  return page.evaluate(() => {
    const raw = localStorage.getItem('song');
    return raw === null ? null : (JSON.parse(raw) as { name: string }[]).map((song) => song.name);
  });
}

test('playing 11 songs keeps the 10 most recent, newest first, without duplicates', async ({ page }) => {
  test.setTimeout(120_000);
  const dashboard = new Dashboard(page);
  const listener = newAccount('recent');
  await registerAccount(server.baseURL, listener);
  await logIn(page, listener);
  expect(await storedRecentNames(page)).toBeNull();

  const list = await dashboard.openSongs();
  await expect(list.getByRole('listitem')).not.toHaveCount(0);
  const catalogue = await list.getByRole('listitem').evaluateAll((rows) => rows.length);
  expect(catalogue, 'the demo catalogue has enough songs').toBeGreaterThanOrEqual(11);
  const played = (await dashboard.renderedSongNames(list)).slice(0, 11);

  for (const name of played) {
    const row = await dashboard.revealSong(list, name);
    await row.getByRole('button', { name: `Play ${name}`, exact: true }).click();
    await expect(row.getByRole('button', { name: `Pause ${name}`, exact: true })).toBeVisible();
    await expect.poll(() => storedRecentNames(page).then((names) => names?.[0])).toBe(name);
  }

  const newestFirst = [...played].reverse().slice(0, 10);
  expect(await storedRecentNames(page)).toEqual(newestFirst);
  expect(newestFirst).not.toContain(played[0]);

  // Playing a song already in the list moves it to the front instead of repeating it.
  const replayed = newestFirst[4] ?? '';
  const row = await dashboard.revealSong(list, replayed);
  await row.getByRole('button', { name: `Play ${replayed}`, exact: true }).click();
  const afterReplay = [replayed, ...newestFirst.filter((name) => name !== replayed)];
  await expect.poll(() => storedRecentNames(page)).toEqual(afterReplay);

  await dashboard.nav.getByRole('link', { name: 'Home' }).click();
  const recent = dashboard.songList('Recently played');
  await expect(recent.getByRole('listitem')).toHaveCount(10);
  expect(await dashboard.renderedSongNames(recent)).toEqual(afterReplay);

  // The list survives a reload: it lives in local storage.
  await page.reload();
  await expect(recent.getByRole('listitem')).toHaveCount(10);
  expect(await dashboard.renderedSongNames(recent)).toEqual(afterReplay);
});
