import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { FolderClientMessages as Folders, LibraryClientMessages as Texts } from '@tonearm/contract';
import { encodeAudio, requireFfmpeg } from '../apps/server/test/audio-formats.js';
import { logIn, newAccount, registerAccount, type Account } from './support/pages/accounts.js';
import { audioSnapshot, recordPlayingEvents } from './support/pages/audio-probe.js';
import { Dashboard } from './support/pages/dashboard.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';
import { dismissAlerts } from './support/web-app.js';

/*
 * Issue 25's walk: an administrator points a library at a folder and lets every listener see it; a listener browses
 * its folders, plays a song by two artists and opens each artist; the file is renamed on disk, and after the rescan the
 * song is the same one, still liked.
 */

const server = useTonearmServer();
const LIBRARY = 'Shelf';
const DUET = 'Together Again';

let root: string;
let listener: Account;

test.beforeAll(async () => {
  requireFfmpeg();
  root = await mkdtemp(path.join(tmpdir(), 'tonearm-e2e-folders-'));
  const duets = path.join(root, 'Ann Arbor', 'Duets');
  await mkdir(duets, { recursive: true });
  await encodeAudio(path.join(duets, '01 Together Again.mp3'), 'mp3', {
    frequency: 360,
    seconds: 4,
    tags: { title: DUET, artist: 'Ann Arbor feat. Bo Ray', album: 'Duets', track: '1', genre: 'Pop' },
  });
  await encodeAudio(path.join(duets, '02 Alone.mp3'), 'mp3', {
    frequency: 420,
    tags: { title: 'Alone', artist: 'Ann Arbor', album: 'Duets', track: '2', genre: 'Pop' },
  });
  await encodeAudio(path.join(root, 'Loose Tune.mp3'), 'mp3', {
    frequency: 510,
    tags: { title: 'Loose Tune', artist: 'Cy Twine', genre: 'Pop' },
  });
  listener = newAccount('listener');
  await registerAccount(server.baseURL, listener);
});

test.afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The library's id, as the administrator's API lists it. */
async function libraryId(page: Page): Promise<number> {
  const answer = await page.request.get('/api/libraries');
  const { libraries } = (await answer.json()) as { libraries: { id: number; name: string }[] };
  const found = libraries.find((library) => library.name === LIBRARY);
  if (found === undefined) throw new Error(`no library ${LIBRARY}`);
  return found.id;
}

test('a library read in place: folders, a song by two artists, and a renamed file that keeps its like', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // The administrator adds the folder and lets every listener see it.
  await logIn(page, server.admin);
  await page.goto('/dashboard/libraries');
  const form = page.getByRole('form', { name: Texts.addTitle });
  await form.getByLabel(Texts.pathLabel).fill(root);
  await form.getByLabel(Texts.nameLabel).fill(LIBRARY);
  await form.getByRole('button', { name: Texts.add }).click();
  const card = page.getByRole('listitem', { name: LIBRARY });
  await expect(card.locator('.library__stats dd').first()).toHaveText('3', { timeout: 30_000 });
  await dismissAlerts(page);
  await card.getByRole('button', { name: `${Texts.whoSees}: ${LIBRARY}` }).click();
  const audience = page.getByRole('form', { name: `${Texts.whoSees}: ${LIBRARY}` });
  await audience.getByRole('radio', { name: Texts.everyoneSees }).check();
  await audience.getByRole('button', { name: Texts.saveAccess }).click();
  await expect(card.getByText(Texts.seenByEveryone)).toBeVisible();
  const id = await libraryId(page);

  // A listener browses the library by its folders and plays the duet.
  const context = await browser.newContext();
  const listenerPage = await context.newPage();
  const dashboard = new Dashboard(listenerPage);
  await logIn(listenerPage, listener);
  await dashboard.nav.getByRole('link', { name: Folders.navLabel }).click();
  await expect(listenerPage.getByRole('heading', { level: 1, name: Folders.pageTitle })).toBeVisible();
  await listenerPage
    .getByRole('list', { name: Folders.pageTitle })
    .getByRole('link', { name: new RegExp(LIBRARY) })
    .click();
  await expect(listenerPage.getByRole('heading', { level: 1, name: LIBRARY })).toBeVisible();
  const songsHere = listenerPage.getByRole('list', { name: Folders.songs });
  await expect(songsHere.getByText('Loose Tune', { exact: true })).toBeVisible();
  await listenerPage
    .getByRole('list', { name: Folders.subfolders })
    .getByRole('link', { name: /Ann Arbor/ })
    .click();
  await listenerPage.getByRole('list', { name: Folders.subfolders }).getByRole('link', { name: /Duets/ }).click();
  await expect(listenerPage.getByRole('heading', { level: 1, name: 'Duets' })).toBeVisible();
  const breadcrumb = listenerPage.getByRole('navigation', { name: Folders.breadcrumb });
  await expect(breadcrumb).toContainText('Ann Arbor');

  const row = listenerPage.getByRole('listitem').filter({ hasText: DUET });
  await recordPlayingEvents(dashboard.audio);
  await row.getByRole('button', { name: `Play ${DUET}`, exact: true }).click();
  await expect
    .poll(async () => (await audioSnapshot(dashboard.audio)).playingEvents, { timeout: 15_000 })
    .toBeGreaterThanOrEqual(1);
  await expect.poll(async () => (await audioSnapshot(dashboard.audio)).currentTime).toBeGreaterThan(0.5);
  expect((await audioSnapshot(dashboard.audio)).src).toContain(`/media/audio/lib${String(id)}-`);
  await expect(dashboard.player.getByText(DUET, { exact: true })).toBeVisible();
  await row.getByRole('button', { name: `Like ${DUET}` }).click();
  await expect(row.getByRole('button', { name: `Like ${DUET}` })).toHaveAttribute('aria-pressed', 'true');

  // Each of its two artists has a link of their own, to their page.
  for (const artist of ['Ann Arbor', 'Bo Ray']) {
    await row.getByRole('link', { name: artist, exact: true }).click();
    await expect(listenerPage.getByRole('heading', { level: 1, name: artist, exact: true })).toBeVisible();
    await expect(listenerPage.getByRole('main').getByText(DUET, { exact: true }).first()).toBeVisible();
    await listenerPage.goBack();
    await expect(listenerPage.getByRole('heading', { level: 1, name: 'Duets' })).toBeVisible();
  }

  // The file is renamed on disk; after the rescan the song is the same one, and still liked.
  const before = (await (await listenerPage.request.get('/api/songs/liked/page')).json()) as {
    items: { id: number; name: string }[];
  };
  const duetId = before.items.find((song) => song.name === DUET)?.id;
  expect(duetId).toBeDefined();
  const renamedAt = new Date().toISOString();
  await rename(
    path.join(root, 'Ann Arbor', 'Duets', '01 Together Again.mp3'),
    path.join(root, 'Ann Arbor', 'Duets', '01 Together Again (2024 remaster).mp3'),
  );
  // The folder's watcher may scan too (SCAN_WATCH), and may be the one that counts the move: once a scan started
  // after the rename is done, the library has the same three songs and none missing (a song that lost its id would
  // leave one missing and one more).
  const scan = await page.request.post(`/api/libraries/${String(id)}/scan`);
  expect(scan.status()).toBe(200);
  await expect
    .poll(
      async () => {
        const answer = await page.request.get(`/api/libraries/${String(id)}`);
        const library = (await answer.json()) as {
          songCount: number;
          missingCount: number;
          scan: { state: string; startedAt: string } | null;
        };
        const fresh = library.scan !== null && library.scan.startedAt >= renamedAt;
        return `${fresh ? library.scan?.state : 'earlier scan'}: ${String(library.songCount)} songs, ${String(library.missingCount)} missing`;
      },
      { timeout: 30_000 },
    )
    .toBe('done: 3 songs, 0 missing');
  const after = (await (await listenerPage.request.get('/api/songs/liked/page')).json()) as {
    items: { id: number; name: string }[];
  };
  expect(after.items.map((song) => song.id)).toEqual([duetId]);
  await listenerPage.reload();
  const moved = listenerPage.getByRole('listitem').filter({ hasText: DUET });
  await expect(moved.getByRole('button', { name: `Like ${DUET}` })).toHaveAttribute('aria-pressed', 'true');
  await context.close();
});
