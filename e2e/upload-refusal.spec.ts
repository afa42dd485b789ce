import { writeFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { ClientMessages, ErrorCodes, ServerMessages } from '@tonearm/contract';
import { logIn } from './support/pages/accounts.js';
import { Dashboard } from './support/pages/dashboard.js';
import { gradientPng } from './support/pages/media-files.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';

const server = useTonearmServer();

/** Large enough that the browser is still sending when the server refuses it (the drain keeps at most 4 MiB). */
const LARGE_UPLOAD_BYTES = 48 * 1024 * 1024;

test('an upload refused because the session ended reaches the page as "Please log in", not a network error', async ({
  page,
}) => {
  const dashboard = new Dashboard(page);
  await logIn(page, server.admin);
  await dashboard.openSongs();
  await dashboard.addSongTile.click();
  const form = dashboard.dialog('Add Song');
  await form.getByLabel('Name', { exact: true }).fill('Never uploaded');
  await form.getByLabel('Genre', { exact: true }).selectOption('Ambient');
  await form.getByLabel('Artist', { exact: true }).selectOption({ label: 'Slow Tide Ensemble' });
  // A WAV header in front of a large body: the server refuses the request before it reads any of it.
  // (A file on disk: Playwright hands the browser its path instead of copying the bytes over the protocol.)
  const audio = Buffer.alloc(LARGE_UPLOAD_BYTES, 0);
  audio.write('RIFF', 0, 'latin1');
  audio.write('WAVE', 8, 'latin1');
  const audioPath = test.info().outputPath('long-take.wav');
  await writeFile(audioPath, audio);
  await form.getByLabel('Song file', { exact: true }).setInputFiles(audioPath);
  await form.getByLabel('Image file', { exact: true }).setInputFiles({
    name: 'cover.png',
    mimeType: 'image/png',
    buffer: await gradientPng(),
  });

  // The session ends on the server (logged out elsewhere) while the form is open.
  const cookies = await page.context().cookies();
  const session = cookies.find((cookie) => cookie.name === 'tonearm_session');
  expect(session).toBeDefined();
  const logout = await fetch(`${server.baseURL}/api/auth/logout`, {
    method: 'POST',
    headers: { cookie: `tonearm_session=${session?.value ?? ''}` },
  });
  expect(logout.status).toBe(204);

  const upload = page.waitForResponse((response) => response.url().endsWith('/api/songs'));
  await form.getByRole('button', { name: 'Save' }).click();
  const answer = await upload;
  expect(answer.status()).toBe(401);
  expect(await answer.json()).toEqual({
    error: { code: ErrorCodes.unauthorized, message: ServerMessages.notAuthenticated },
  });
  // The web app's answer to a 401 (AuthProvider): "Please log in to continue", and the login form, since the session is
  // gone. A network error would instead leave the form open with "Error adding song".
  await expect(page.getByRole('alert').filter({ hasText: ServerMessages.notAuthenticated })).toBeVisible();
  await expect(page.getByRole('form', { name: 'Log in' })).toBeVisible();
  await expect(page.getByText(ClientMessages.errorAddingSong, { exact: true })).toHaveCount(0);
});
