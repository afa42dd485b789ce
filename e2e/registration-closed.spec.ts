import { expect, test } from '@playwright/test';
import { logIn, newAccount } from './support/pages/accounts.js';
import { Dashboard } from './support/pages/dashboard.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';
import { currentUser } from './support/web-app.js';

// REGISTRATION=closed; the admin account is claimed from this machine before the first test (loopback).
const server = useTonearmServer({ registration: 'closed', demo: false });

test('with registration closed, the sign-up tab says so and offers no form', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('tab', { name: 'Sign up' }).click();
  await expect(page.getByRole('note')).toHaveText(
    'Registration is closed on this server. Ask an administrator to create an account for you.',
  );
  await expect(page.getByRole('form', { name: 'Sign up' })).toHaveCount(0);
  const response = await page.request.post('/api/auth/register', {
    data: { username: 'gatecrasher', email: 'gatecrasher@example.test', password: 'correct-horse-battery' },
  });
  expect(response.status()).toBe(403);
});

test('a setup link opens Sign up for the administrator account, and a stale code is refused plainly', async ({
  page,
}) => {
  await page.goto('/?setup=not-the-code');
  const form = page.getByRole('form', { name: 'Sign up' });
  await expect(page.getByRole('tab', { name: 'Sign up' })).toHaveAttribute('aria-selected', 'true');
  await expect(form.getByRole('note')).toHaveText(
    'This account will administer the server: it manages the catalogue, the users and Premium.',
  );
  const account = newAccount('claimer');
  await form.getByLabel('Username').fill(account.username);
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Password').fill(account.password);
  await form.getByRole('button', { name: 'Sign up' }).click();
  await expect(form.getByRole('alert')).toHaveText(
    'This setup code is not valid: it is wrong, or the server already has an administrator. Use the address printed in the server log.',
  );
  await expect(page).toHaveURL(/\/\?setup=/);
});

test('an administrator adds a user from the user list, who can then log in', async ({ page, browser }) => {
  const dashboard = new Dashboard(page);
  await logIn(page, server.admin);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
  await page.getByRole('button', { name: 'Add user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add user' });
  const invited = newAccount('invited');
  await dialog.getByLabel('Username').fill(invited.username);
  await dialog.getByLabel('Email').fill(invited.email);
  await dialog.getByLabel(/^Password/).fill(invited.password);
  await dialog.getByRole('button', { name: 'Create account' }).click();
  await expect(dashboard.successAlert(`Created the account ${invited.username}`)).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('row', { name: invited.username })).toBeVisible();

  const other = await browser.newContext({ baseURL: server.baseURL });
  try {
    await logIn(await other.newPage(), invited);
  } finally {
    await other.close();
  }
  expect(await currentUser(server.baseURL, invited)).toMatchObject({ role: 'USER', premium: false });
});
