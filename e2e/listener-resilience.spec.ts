import { expect, test, type Route } from '@playwright/test';
import { logIn, newAccount, registerAccount } from './support/pages/accounts.js';
import { Dashboard } from './support/pages/dashboard.js';
import { readTimeline, startTimeline } from './support/pages/dom-timeline.js';
import { expectCoversNone } from './support/layout.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';

const server = useTonearmServer();

const SERVER_ERROR = {
  status: 500,
  contentType: 'application/json',
  body: JSON.stringify({ error: { code: 'internal', message: 'Injected failure' } }),
};

function isPath(pathname: string): (url: URL) => boolean {
  return (url) => url.pathname === pathname;
}

test('song loading retries every 5 s, gives up after 5 failures and shows the red alert', async ({ page }) => {
  test.setTimeout(120_000);
  const dashboard = new Dashboard(page);
  const attempts: number[] = [];
  // The home page's list asks for the catalogue's first page at once (issue 26: never waiting for SPEC §6's load 2 s
  // after the user check, which then finds the same query failing and retrying, and asks nothing more).
  await page.route(isPath('/api/songs/page'), async (route: Route) => {
    attempts.push(Date.now());
    await route.fulfill(SERVER_ERROR);
  });

  // The admin's user check is the login answer.
  await page.goto('/');
  const form = page.getByRole('form', { name: 'Log in' });
  await form.getByLabel('Username or email').fill(server.admin.username);
  await form.getByLabel('Password').fill(server.admin.password);
  const loginAnswer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth/login');
  await form.getByRole('button', { name: 'Log in' }).click();
  await loginAnswer;
  const userKnownAt = Date.now();

  const gaveUp = dashboard.errorAlert('Error fetching songs. Please try again later.');
  await expect(gaveUp).toBeVisible({ timeout: 45_000 });
  // One alert after the last failure, not one per attempt (checked before it hides after 3 s).
  await expect(dashboard.notifications.getByRole('alert')).toHaveCount(1);
  await dashboard.expectRedAlert(gaveUp);
  expect(attempts).toHaveLength(5);
  // Times are taken in the runner, which hears of each request a little after the browser sends it: hence the
  // margins below (the default TanStack retry would be 1 s, 2 s, 4 s apart, far outside them).
  const firstDelay = (attempts[0] ?? 0) - userKnownAt;
  // That the list asks without waiting for SPEC §6's load is unit-tested with a fake clock (useSongs.test.tsx): here,
  // behind a login, a navigation and the page's chunks, the first attempt's time says too little to tell the two apart.
  expect(firstDelay).toBeLessThan(6000);
  const gaps = attempts.slice(1).map((at, i) => at - (attempts[i] ?? 0));
  test.info().annotations.push({ type: 'song-load gaps', description: gaps.map((gap) => `${gap} ms`).join(', ') });
  for (const gap of gaps) {
    expect(gap, 'retries are 5 s apart').toBeGreaterThanOrEqual(4500);
    expect(gap).toBeLessThan(7500);
  }

  // A sixth attempt would come 5 s after the fifth; wait that long (plus margin) and count again.
  const sixthWouldBeAt = (attempts[4] ?? 0) + 6500;
  await page.waitForTimeout(Math.max(0, sixthWouldBeAt - Date.now()));
  expect(attempts).toHaveLength(5);
  await expect(dashboard.main.getByText('Songs could not be loaded.')).toBeVisible();
});

test('a failing GET /artists shows "Error fetching artists"', async ({ page }) => {
  const dashboard = new Dashboard(page);
  const listener = newAccount('artfail');
  await registerAccount(server.baseURL, listener);
  await logIn(page, listener);
  const artistsPath = isPath('/artists');
  await page.route(artistsPath, (route) => route.fulfill(SERVER_ERROR));

  await page.goto('/dashboard/artist');
  const alert = dashboard.errorAlert('Error fetching artists');
  await expect(alert).toBeVisible();
  await dashboard.expectRedAlert(alert);
  await expect(dashboard.main.getByText('Artists could not be loaded.')).toBeVisible();

  // Once the server answers again, "Try again" recovers the page.
  await page.unroute(artistsPath);
  await dashboard.main.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('list', { name: 'Artists' }).getByRole('link')).toHaveCount(5);
});

test('an alert hides by itself after about 3 s, or at once with Close alert', async ({ page }) => {
  const dashboard = new Dashboard(page);
  await logIn(page, server.admin);
  await dashboard.openSongs();
  await dashboard.addSongTile.click();
  const save = dashboard.dialog('Add Song').getByRole('button', { name: 'Save' });
  const message = 'Please upload both song and image files.';

  await startTimeline(page, { alert: { selector: '[role="alert"]', text: message } });
  await save.click();
  await expect(dashboard.errorAlert(message)).toBeVisible();
  // It covers nothing the dialog or the page needs (issue 26: at the top centre it hid the dialog's title and close).
  const dialog = dashboard.dialog('Add Song');
  await expectCoversNone(dashboard.errorAlert(message), {
    'the dialog title': dialog.getByRole('heading', { name: 'Add Song' }),
    'the dialog close button': dialog.getByRole('button', { name: 'Close dialog' }),
    'the Save button': save,
  });
  await expect(dashboard.errorAlert(message)).toBeHidden({ timeout: 8000 });
  const { alert } = await readTimeline<'alert'>(page);
  if (alert.seenAt === null || alert.goneAt === null) throw new Error(`incomplete timeline ${JSON.stringify(alert)}`);
  const shownFor = alert.goneAt - alert.seenAt;
  test.info().annotations.push({ type: 'alert shown for', description: `${Math.round(shownFor)} ms` });
  expect(shownFor).toBeGreaterThan(2700);
  expect(shownFor).toBeLessThan(4000);

  await startTimeline(page, { closed: { selector: '[role="alert"]', text: message } });
  await save.click();
  const again = dashboard.errorAlert(message);
  await expect(again).toBeVisible();
  await again.getByRole('button', { name: 'Close alert' }).click();
  await expect(again).toBeHidden();
  const { closed } = await readTimeline<'closed'>(page);
  if (closed.seenAt === null || closed.goneAt === null)
    throw new Error(`incomplete timeline ${JSON.stringify(closed)}`);
  expect(closed.goneAt - closed.seenAt, 'closed by the button, before the 3 s timer').toBeLessThan(2500);
});
