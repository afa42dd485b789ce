import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiSession, logIn, newAccount, registerAccount, type Account } from './support/pages/accounts.js';
import { audioSnapshot } from './support/pages/audio-probe.js';
import { listSongs } from './support/pages/catalogue-api.js';
import { Dashboard } from './support/pages/dashboard.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';
import { DESKTOP } from './support/web-app.js';

// Issue 27, item 3: synced lyrics in the Now playing view, following the real <audio> element in Chromium.
const server = useTonearmServer();
/** The longest demo song (38 s). */
const SONG = 'Low Tide Hymn';
/** One line every 2 s, "Line at 0" to "Line at 36". */
const STEP_S = 2;
const LINES = Array.from({ length: 19 }, (_, index) => index * STEP_S);
const LRC = LINES.map((second) => `[00:${String(second).padStart(2, '0')}.00]Line at ${String(second)}`).join('\n');

let listener: Account;

test.beforeAll(async () => {
  listener = newAccount('lyrics');
  await registerAccount(server.baseURL, listener);
  const admin = await apiSession(server.baseURL, server.admin);
  try {
    const song = (await listSongs(admin)).find((entry) => entry.name === SONG);
    if (!song) throw new Error(`${SONG} is not in the demo catalogue`);
    const saved = await admin.put(`/api/songs/${String(song.id)}/lyrics`, { data: { text: LRC } });
    expect(saved.ok(), await saved.text()).toBe(true);
  } finally {
    await admin.dispose();
  }
});

/** The audio element's time and the highlighted line, read in one task of the page. */
function sample(page: Page): Promise<{ time: number; line: string | null }> {
  return page.evaluate(() => {
    const audio = document.querySelector<HTMLAudioElement>('audio[data-testid="player-audio"]');
    const current = document.querySelector('[aria-label="Lyrics"] [aria-current="true"]');
    return { time: audio?.currentTime ?? -1, line: current?.textContent ?? null };
  });
}

function lyricsOf(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Now playing', exact: true }).getByRole('region', { name: 'Lyrics' });
}

test('the current line follows the playing audio, and a click on a line plays from there', async ({ page }) => {
  const dashboard = new Dashboard(page);
  await page.setViewportSize(DESKTOP);
  await logIn(page, listener);
  const row = await dashboard.revealSong(await dashboard.openSongs(), SONG);
  await row.getByRole('button', { name: `Play ${SONG}`, exact: true }).click();
  await dashboard.player.getByRole('button', { name: 'Now playing', exact: true }).click();
  const lyrics = lyricsOf(page);
  await expect(lyrics.getByRole('listitem')).toHaveCount(LINES.length);
  await expect
    .poll(async () => (await audioSnapshot(dashboard.audio)).currentTime, { timeout: 15_000 })
    .toBeGreaterThan(0.5);

  // Sampled while it plays: the highlighted line is the one whose time has come (away from a change of line, where
  // the page may be a frame behind).
  let checked = 0;
  for (let at = 0; at < 30 && checked < 12; at++) {
    const { time, line } = await sample(page);
    const sinceChange = time % STEP_S;
    if (sinceChange > 0.1 && sinceChange < STEP_S - 0.05) {
      expect(line, `at ${time.toFixed(3)} s`).toBe(`Line at ${String(Math.floor(time / STEP_S) * STEP_S)}`);
      checked += 1;
    }
    await page.waitForTimeout(230);
  }
  expect(checked).toBeGreaterThanOrEqual(8);

  // A click on a later line plays from its time, and that line is the current one (and in view).
  const target = lyrics.getByRole('button', { name: 'Line at 30', exact: true });
  await target.click();
  await expect.poll(async () => (await audioSnapshot(dashboard.audio)).currentTime).toBeGreaterThanOrEqual(30);
  expect((await audioSnapshot(dashboard.audio)).currentTime).toBeLessThan(32);
  await expect(lyrics.locator('[aria-current="true"]')).toHaveText('Line at 30');
  await expect(lyrics.locator('[aria-current="true"]')).toBeInViewport();
});

test('a song without lyrics says so plainly', async ({ page }) => {
  const api = await apiSession(server.baseURL, listener);
  const other = (await listSongs(api).finally(() => api.dispose())).find((song) => song.name !== SONG);
  if (!other) throw new Error('the demo catalogue has one song only');
  const dashboard = new Dashboard(page);
  await page.setViewportSize(DESKTOP);
  await logIn(page, listener);
  const row = await dashboard.revealSong(await dashboard.openSongs(), other.name);
  await row.getByRole('button', { name: `Play ${other.name}`, exact: true }).click();
  await dashboard.player.getByRole('button', { name: 'Now playing', exact: true }).click();
  await expect(lyricsOf(page)).toContainText('No lyrics for this song.');
});
