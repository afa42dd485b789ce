import { expect, test, type Locator, type Page } from '@playwright/test';
import { postgresMissing, type E2eDatabase } from './support/large-library.js';
import { apiSession, logIn, newAccount, registerAccount } from './support/pages/accounts.js';
import { audioSnapshot } from './support/pages/audio-probe.js';
import { Dashboard } from './support/pages/dashboard.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';

/** Issue 11: a library of this size, seeded straight into the database before the server starts. */
const SONGS = 20_000;
const DATABASES: readonly E2eDatabase[] = ['sqlite', 'postgres'];
/** Issue 11: the home page and the songs page show their first row within this long after navigation. */
const FIRST_ROW_MS = 1_500;

interface SongJson {
  id: number;
  name: string;
  link: string;
  imgLink: string;
  artistName: string;
}

interface SongPageJson {
  items: SongJson[];
  nextCursor: string | null;
  total: number;
}

/** Milliseconds from starting `navigate` until `row` is visible. */
async function timeToFirstRow(navigate: () => Promise<unknown>, row: Locator): Promise<number> {
  const started = Date.now();
  await navigate();
  await expect(row).toBeVisible({ timeout: 10_000 });
  return Date.now() - started;
}

/** The song list's last row as far as it has loaded: its position in the list (aria-posinset). */
async function lastLoadedPosition(list: Locator): Promise<number> {
  const positions = await list
    .getByRole('listitem')
    .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('aria-posinset') ?? '0')));
  return Math.max(0, ...positions);
}

/** Scrolls the main view down until the list's row at position `last` is rendered; answers that row. */
async function scrollToRow(page: Page, list: Locator, last: number): Promise<Locator> {
  const main = page.getByRole('main');
  await expect
    .poll(
      async () => {
        await main.evaluate((element) => {
          element.scrollTop = element.scrollHeight;
        });
        return lastLoadedPosition(list);
      },
      { message: `song row ${last} of ${last}`, timeout: 240_000, intervals: [50, 100, 200] },
    )
    .toBe(last);
  return list.locator(`[role="listitem"][aria-posinset="${last}"]`);
}

for (const database of DATABASES) {
  test.describe(`a library of ${SONGS} songs (${database})`, () => {
    // Never skipped: without PostgreSQL's server binaries the PostgreSQL half fails with this reason.
    test.beforeAll(() => {
      const missing = database === 'postgres' ? postgresMissing() : null;
      if (missing !== null) throw new Error(missing);
    });
    const server = useTonearmServer({ demo: false, library: { songs: SONGS, database } });

    test('the server pages the catalogue by cursor; the newest song plays and shows its cover', async () => {
      const api = await apiSession(server.baseURL, server.admin);
      try {
        const response = await api.get('/api/songs/page?order=newest&limit=50');
        expect(response.status()).toBe(200);
        const page = (await response.json()) as SongPageJson;
        expect(page.total).toBe(SONGS);
        expect(page.items.map((song) => song.id)).toEqual(Array.from({ length: 50 }, (_, i) => SONGS - i));
        expect(page.nextCursor).not.toBeNull();

        const [newest] = page.items;
        const audio = await api.get(newest?.link ?? '');
        expect(audio.status()).toBe(200);
        expect(audio.headers()['content-type']).toBe('audio/wav');
        expect((await audio.body()).subarray(0, 4).toString('latin1')).toBe('RIFF');
        const cover = await api.get(newest?.imgLink ?? '');
        expect(cover.status()).toBe(200);
        expect(cover.headers()['content-type']).toMatch(/^image\//);
      } finally {
        await api.dispose();
      }
    });

    test('the home page and the songs page show their first row (figure: bench:catalogue)', async ({ page }) => {
      // A listener: their lists load when they open (so do premium users' and admins', issue 26).
      const listener = newAccount('listener');
      await registerAccount(server.baseURL, listener);
      await logIn(page, listener);
      const home = await timeToFirstRow(
        () => page.goto('/dashboard'),
        page.getByRole('list', { name: 'Songs', exact: true }).getByRole('listitem').first(),
      );
      const songs = await timeToFirstRow(
        () => page.goto('/dashboard/songs'),
        page.getByRole('list', { name: 'Songs', exact: true }).getByRole('listitem').first(),
      );
      // Issue 11 asks for under 1.5 s (FIRST_ROW_MS). The figure comes from `npm run bench:catalogue`, run alone (a timed
      // assertion here would fail on a busy machine, not on slow code): this test requires the rows to come, and
      // reports its own timing beside the target.
      test.info().annotations.push({
        type: 'first row',
        description: `home ${home} ms, songs ${songs} ms (target ${FIRST_ROW_MS} ms)`,
      });
      // The count comes from the server, not from the rows loaded so far.
      await expect(page.getByText(`${SONGS.toLocaleString('en-US')} songs`).first()).toBeVisible();
    });

    // The scroll to the end is the browser's paging, on SQLite only: the cursor's paging of every song is
    // song-pages.test.ts's on both dialects, and the walk through 200 pages is the same one (66 s of the e2e run).
    if (database === 'sqlite') {
      test('the songs page scrolls to the last song and plays it', async ({ page }) => {
        test.setTimeout(300_000);
        const dashboard = new Dashboard(page);
        await logIn(page, server.admin);
        const list = await dashboard.openSongs();
        const row = await scrollToRow(page, list, SONGS);
        const name = (await row.getAttribute('aria-label')) ?? '';
        await row.scrollIntoViewIfNeeded();
        await row.getByRole('button', { name: `Play ${name}`, exact: true }).click();
        await expect(row.getByRole('button', { name: `Pause ${name}`, exact: true })).toBeVisible();
        await expect(dashboard.player.getByText(name, { exact: true })).toBeVisible();
        await expect
          .poll(async () => (await audioSnapshot(dashboard.audio)).currentTime, { timeout: 15_000 })
          .toBeGreaterThan(0.5);
      });
    }

    test('search finds songs by a three-letter prefix', async ({ page }) => {
      await logIn(page, server.admin);
      await page.goto('/dashboard/songs');
      await page.getByPlaceholder('What do you want to listen to?').fill('sil');
      await expect(page.getByText('Results for “sil”')).toBeVisible();
      const hits = page.getByRole('main').getByRole('listitem');
      await expect(hits.first()).toBeVisible({ timeout: 10_000 });
      const names = await hits.evaluateAll((rows) => rows.slice(0, 10).map((row) => row.textContent));
      expect(names.length).toBeGreaterThan(0);
      for (const text of names) expect(text).toMatch(/\bsil/i);
    });
  });
}
