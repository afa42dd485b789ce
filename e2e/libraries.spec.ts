import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { LibraryClientMessages as Texts, LibraryMessages } from '@tonearm/contract';
import { encodeAudio, requireFfmpeg } from '../apps/server/test/audio-formats.js';
import { logIn, newAccount, registerAccount, type Account } from './support/pages/accounts.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';
import { dismissAlerts, PHONE, screenshotBoth } from './support/web-app.js';

const server = useTonearmServer();
const SONGS = ['Morning Tone', 'Noon Tone', 'Evening Tone'];

let folder: string;
let listener: Account;

test.beforeAll(async () => {
  requireFfmpeg();
  folder = await mkdtemp(path.join(tmpdir(), 'tonearm-e2e-library-'));
  for (const [index, title] of SONGS.entries()) {
    await encodeAudio(path.join(folder, `${String(index + 1)} - ${title}.mp3`), 'mp3', {
      frequency: 300 + 90 * index,
      tags: { title, artist: 'Folder Band', album: 'Read In Place', track: String(index + 1), genre: 'Ambient' },
    });
  }
  listener = newAccount('listener');
  await registerAccount(server.baseURL, listener);
});

test.afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

function libraryCard(page: Page, name: string): Locator {
  return page.getByRole('listitem', { name });
}

/** The value shown beside `label` in a list of counts. */
function valueOf(counts: Locator, label: string): Locator {
  return counts.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');
}

/** A library's own counts (songs, missing, last scanned), not its scan's. */
function stat(card: Locator, label: string): Locator {
  return valueOf(card.locator('.library__stats'), label);
}

/** No critical or serious axe violation inside `selector`. */
async function expectAccessible(page: Page, selector: string, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).include(selector).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  expect(serious, `serious axe violations in ${what}`).toEqual([]);
}

/** Nothing on the page is wider than the window (no sideways scrolling), the scrolling main area included. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() =>
    [document.documentElement, document.querySelector('main')].map((element) =>
      element === null ? 0 : element.scrollWidth - element.clientWidth,
    ),
  );
  expect(overflow).toEqual([0, 0]);
}

test('an administrator adds the music folder from the home page, follows its scan and manages it on the Libraries page', async ({
  page,
}) => {
  await logIn(page, server.admin);
  const step = page.getByRole('region', { name: Texts.firstStepTitle });
  await expect(step).toBeVisible();
  const form = step.getByRole('form', { name: Texts.firstStepTitle });
  await screenshotBoth(page, 'libraries-first-step');
  await expectAccessible(page, 'main', 'the home page with its first step');

  // The server checks the folder, and says why it refuses one under the field.
  await form.getByLabel(Texts.pathLabel).fill(path.join(folder, 'not-here'));
  await form.getByRole('button', { name: Texts.add }).click();
  await expect(form.getByText(LibraryMessages.pathMissing)).toBeVisible();
  await form.getByLabel(Texts.pathLabel).fill(folder);
  await form.getByLabel(/^Name/).fill('Tones');
  await form.getByRole('button', { name: Texts.add }).click();
  await expect(page.getByText(Texts.libraryAdded('Tones'))).toBeVisible();
  await expect(step).toHaveCount(0);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: Texts.pageTitle }).click();
  await expect(page.getByRole('heading', { level: 1, name: Texts.pageTitle })).toBeVisible();
  const card = libraryCard(page, 'Tones');
  await expect(card.getByText(folder, { exact: true })).toBeVisible();
  // The scan ends by itself (polled): its report, and the songs in the catalogue.
  await expect(card.getByRole('region', { name: Texts.scanDone })).toBeVisible();
  await expect(stat(card, Texts.songs)).toHaveText('3');
  await expect(valueOf(card.getByRole('region', { name: Texts.scanDone }), Texts.added)).toHaveText('3');
  await expect(card.getByRole('button', { name: `${Texts.purgeMissing} of Tones` })).toHaveCount(0);

  await card.getByRole('button', { name: 'Rename Tones' }).click();
  const rename = page.getByRole('form', { name: 'Rename Tones' });
  await rename.getByLabel(Texts.newName).fill('Tone folder');
  await rename.getByRole('button', { name: Texts.save }).click();
  await expect(page.getByText(Texts.renamed('Tone folder'))).toBeVisible();
  const renamed = libraryCard(page, 'Tone folder');
  await expect(renamed).toBeVisible();

  // A file goes: the rescan marks its song missing, and the missing songs can be purged.
  await rm(path.join(folder, '3 - Evening Tone.mp3'));
  await renamed.getByRole('button', { name: 'Rescan Tone folder' }).click();
  await expect(stat(renamed, Texts.missing)).toHaveText('1');
  const purge = renamed.getByRole('button', { name: `${Texts.purgeMissing} of Tone folder` });
  await dismissAlerts(page);
  await expectAccessible(page, 'main', 'the Libraries page');
  await screenshotBoth(page, 'libraries');
  await page.setViewportSize(PHONE);
  await expectNoSidewaysScroll(page);
  await page.setViewportSize({ width: 1280, height: 720 });

  await purge.click();
  const confirmPurge = page.getByRole('alertdialog');
  await expect(confirmPurge).toContainText(Texts.confirmPurge('Tone folder', 1));
  await confirmPurge.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(Texts.purged('Tone folder'))).toBeVisible();
  await expect(stat(renamed, Texts.missing)).toHaveText('0');
  await expect(stat(renamed, Texts.songs)).toHaveText('2');
  await expect(purge).toHaveCount(0);

  await renamed.getByRole('button', { name: 'Remove Tone folder' }).click();
  const confirmRemove = page.getByRole('alertdialog');
  await expect(confirmRemove).toContainText('No file on disk is touched.');
  await confirmRemove.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(Texts.removed('Tone folder'))).toBeVisible();
  await expect(page.getByText(Texts.noLibraries)).toBeVisible();

  // The home page offers the first step again.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(page.getByRole('region', { name: Texts.firstStepTitle })).toBeVisible();
});

test('a listener sees neither the first step nor the Libraries page', async ({ page }) => {
  await logIn(page, listener);
  await expect(page.getByRole('heading', { level: 1, name: /Good (Morning|Afternoon|Evening)/ })).toBeVisible();
  await expect(page.getByRole('region', { name: Texts.firstStepTitle })).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: Texts.pageTitle })).toHaveCount(
    0,
  );
  await page.goto('/dashboard/libraries');
  await expect(page).toHaveURL(/\/dashboard$/);
});
