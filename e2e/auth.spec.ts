import { expect, test } from '@playwright/test';
import { logIn, newAccount, registerAccount, signUp } from './support/pages/accounts.js';
import { Dashboard } from './support/pages/dashboard.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';

// No admin up front: the first test registers the server's first account through the form.
const server = useTonearmServer({ admin: false });

test('the first account signs up on /, stays logged in across a reload and logs out', async ({ page }) => {
  const dashboard = new Dashboard(page);
  await signUp(page, newAccount('first'));

  await expect(page.getByRole('heading', { level: 1, name: /^Good (Morning|Afternoon|Evening)$/ })).toBeVisible();
  // The first account ever registered is the administrator: the Users page is offered.
  await expect(dashboard.nav.getByRole('link', { name: 'Users' })).toBeVisible();

  await page.reload();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(dashboard.nav).toBeVisible();
  await expect(dashboard.nav.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');

  await dashboard.logOut();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('form', { name: 'Log in' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('userdata'))).toBeNull();

  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('form', { name: 'Log in' })).toBeVisible();
  await expect(dashboard.nav).toHaveCount(0);
});

test('an unknown path shows the not-found page', async ({ page }) => {
  for (const path of ['/no-such-page', '/dashboard/no-such-page']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go home' })).toBeVisible();
  }
  await page.getByRole('link', { name: 'Go home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('form', { name: 'Log in' })).toBeVisible();
});

test('a signed-in listener at an unknown address, a playlist that is not there or an unknown album sees a not-found state inside the app, with a way back', async ({
  page,
}) => {
  const dashboard = new Dashboard(page);
  const listener = newAccount('lost');
  await registerAccount(server.baseURL, listener);
  await logIn(page, listener);
  const cases = [
    { path: '/dashboard/no-such-page', title: 'Page not found', back: 'Go to Home', lands: /\/dashboard$/ },
    {
      path: '/dashboard/playlist?id=987654',
      title: 'Playlist not found',
      back: 'All playlists',
      lands: /\/dashboard\/playlist$/,
    },
    {
      path: '/dashboard/album?id=987654',
      title: 'Album not found',
      back: 'Browse artists',
      lands: /\/dashboard\/artist$/,
    },
  ];
  for (const { path, title, back, lands } of cases) {
    await page.goto(path);
    await expect(dashboard.main.getByRole('heading', { level: 1, name: title })).toBeVisible();
    // Inside the shell: the navigation and the player stay; no endless skeleton, no red alert.
    await expect(dashboard.nav).toBeVisible();
    await expect(dashboard.player).toBeVisible();
    await expect(dashboard.main.locator('.skeleton')).toHaveCount(0);
    await expect(dashboard.notifications.getByRole('alert')).toHaveCount(0);
    await dashboard.main.getByRole('link', { name: back }).click();
    await expect(page).toHaveURL(lands);
  }
});

test('logging in with a wrong password shows "Invalid username or password"', async ({ page }) => {
  const account = newAccount('listener');
  await registerAccount(server.baseURL, account);

  await page.goto('/');
  const form = page.getByRole('form', { name: 'Log in' });
  await form.getByLabel('Username or email').fill(account.username);
  await form.getByLabel('Password').fill(`${account.password}-wrong`);
  await form.getByRole('button', { name: 'Log in' }).click();

  await expect(form.getByRole('alert')).toHaveText('Invalid username or password');
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => localStorage.getItem('userdata'))).toBeNull();
});
