import { resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { logIn, newAccount, registerAccount, type Account } from './support/pages/accounts.js';
import { Dashboard } from './support/pages/dashboard.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';
import { currentUser, dismissAlerts, screenshotBoth } from './support/web-app.js';

const server = useTonearmServer();
/** Any PNG will do as a photo: the app's own icon. */
const PHOTO = resolve(import.meta.dirname, '../apps/web/public/pwa-192.png');

async function openProfile(page: Page): Promise<Locator> {
  const profile = page.getByRole('button', { name: 'Profile', exact: true });
  // On a phone the profile sits in the navigation drawer.
  if (!(await profile.isVisible())) await page.getByRole('button', { name: 'Open menu' }).click();
  await profile.click();
  const dialog = page.getByRole('dialog', { name: 'Your profile' });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function tryLogin(baseURL: string, username: string, password: string): Promise<number> {
  const response = await fetch(`${baseURL}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return response.status;
}

test('a user uploads and removes a photo and changes username, email and password', async ({ page }) => {
  const dashboard = new Dashboard(page);
  const account: Account = newAccount('profiled');
  await registerAccount(server.baseURL, account);
  await logIn(page, account);
  const dialog = await openProfile(page);

  // Photo: upload, shown in the dialog and the sidebar; then remove it.
  await dialog.getByLabel('Profile photo').setInputFiles(PHOTO);
  await expect(dashboard.successAlert('Profile photo updated')).toBeVisible();
  const sidebarPhoto = page.getByRole('button', { name: 'Profile', exact: true }).locator('img');
  await expect(sidebarPhoto).toHaveAttribute('src', /^\/media\/images\/.+\?w=64$/);
  await expect(dialog.locator('img.avatar--lg')).toHaveAttribute('src', /\?w=300$/);
  expect((await currentUser(server.baseURL, account)).image).toMatch(/^\/media\/images\//);
  await dismissAlerts(page);
  await screenshotBoth(page, 'profile', {
    expandMain: false,
    prepare: async () => {
      if (!(await dialog.isVisible())) await openProfile(page);
    },
  });
  await dialog.getByRole('button', { name: 'Remove photo' }).click();
  await expect(dashboard.successAlert('Profile photo removed')).toBeVisible();
  await expect(sidebarPhoto).toHaveCount(0);
  expect((await currentUser(server.baseURL, account)).image).toBeNull();

  // Username and email.
  const details = dialog.getByRole('form', { name: 'Account details' });
  const renamed = `${account.username.slice(0, 24)}_new`;
  await details.getByLabel('Username').fill(renamed);
  await details.getByLabel('Email').fill(`${renamed}@example.test`);
  // Username and email are credentials: the current password is asked for, and checked by the server.
  await details.getByLabel('Current password').fill('not-my-password');
  await details.getByRole('button', { name: 'Save changes' }).click();
  await expect(details.getByText('Current password is incorrect')).toBeVisible();
  await details.getByLabel('Current password').fill(account.password);
  await details.getByRole('button', { name: 'Save changes' }).click();
  await expect(dashboard.successAlert('Profile updated')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Profile', exact: true })).toContainText(renamed);
  const updated = { ...account, username: renamed };
  expect(await currentUser(server.baseURL, updated)).toMatchObject({
    username: renamed,
    email: `${renamed}@example.test`,
  });

  // A taken username is refused under its field.
  await details.getByLabel('Username').fill(server.admin.username);
  await details.getByLabel('Current password').fill(account.password);
  await details.getByRole('button', { name: 'Save changes' }).click();
  await expect(details.getByText('Username already taken')).toBeVisible();
  await details.getByLabel('Username').fill(renamed);

  // Password: the current one is checked; the new one works afterwards.
  const password = dialog.getByRole('form', { name: 'Change password' });
  await password.getByLabel('Current password').fill('not-my-password');
  await password.getByLabel('New password').fill('a-brand-new-secret');
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByText('Current password is incorrect')).toBeVisible();
  await password.getByLabel('Current password').fill(account.password);
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(dashboard.successAlert('Password changed')).toBeVisible();
  await expect(password.getByLabel('Current password')).toHaveValue('');
  expect(await tryLogin(server.baseURL, renamed, account.password)).toBe(401);
  expect(await tryLogin(server.baseURL, renamed, 'a-brand-new-secret')).toBe(200);
  // This session stays signed in.
  await page.keyboard.press('Escape');
  await page.reload();
  await expect(page.getByRole('button', { name: 'Profile', exact: true })).toContainText(renamed);
});

test('a user deletes their account after confirming, and lands logged out on the home page', async ({ page }) => {
  const dashboard = new Dashboard(page);
  const account = newAccount('leaving');
  await registerAccount(server.baseURL, account);
  await logIn(page, account);
  const dialog = await openProfile(page);
  const deletion = dialog.getByRole('form', { name: 'Delete account' });
  await deletion.getByRole('button', { name: 'Delete account' }).click();
  await expect(deletion.getByText('Enter your current password')).toBeVisible();
  await deletion.getByLabel('Current password').fill('not-my-password');
  await deletion.getByRole('button', { name: 'Delete account' }).click();
  await dashboard.confirmDialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(deletion.getByText('Current password is incorrect')).toBeVisible();
  expect(await tryLogin(server.baseURL, account.username, account.password)).toBe(200);

  await deletion.getByLabel('Current password').fill(account.password);
  await deletion.getByRole('button', { name: 'Delete account' }).click();
  await expect(dashboard.confirmDialog).toContainText('Delete your account?');
  await dashboard.confirmDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeVisible();

  await deletion.getByRole('button', { name: 'Delete account' }).click();
  await dashboard.confirmDialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('form', { name: 'Log in' })).toBeVisible();
  await expect(dashboard.successAlert('Your account was deleted')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('userdata'))).toBeNull();
  expect(await tryLogin(server.baseURL, account.username, account.password)).toBe(401);
});

test('“Log out everywhere” ends the sessions of every device, this one too', async ({ page, browser }) => {
  const dashboard = new Dashboard(page);
  const account = newAccount('everywhere');
  await registerAccount(server.baseURL, account);
  const elsewhere = await browser.newContext({ baseURL: server.baseURL });
  try {
    const phone = await elsewhere.newPage();
    await logIn(phone, account);
    await logIn(page, account);
    const dialog = await openProfile(page);
    await dialog.getByRole('button', { name: 'Log out everywhere' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('form', { name: 'Log in' })).toBeVisible();
    await expect(dashboard.successAlert('You were logged out on every device')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('userdata'))).toBeNull();
    // The other browser's session is gone too.
    expect((await phone.request.get('/api/auth/me')).status()).toBe(401);
  } finally {
    await elsewhere.close();
  }
});

test('a user generates an app password in the profile, and a Subsonic app signs in with it', async ({ page }) => {
  const dashboard = new Dashboard(page);
  const account: Account = newAccount('subsonic');
  await registerAccount(server.baseURL, account);
  await logIn(page, account);
  const dialog = await openProfile(page);
  const section = dialog.getByRole('region', { name: 'Subsonic apps' });
  await expect(section.getByText(server.baseURL, { exact: true })).toBeVisible();
  await expect(section.getByText('No app password yet.')).toBeVisible();
  await section.getByRole('button', { name: 'Generate app password' }).click();
  await expect(dashboard.successAlert('App password generated')).toBeVisible();
  const shown = section.getByLabel('Your new app password');
  await expect(shown).toHaveValue(/^[a-z2-9]{4}(-[a-z2-9]{4}){5}$/);
  await expect(section.getByText('Copy it now: it will not be shown again.')).toBeVisible();
  const password = await shown.inputValue();
  const axe = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
  const serious = axe.violations
    .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  expect(serious, 'serious axe violations in the profile').toEqual([]);

  const ping = async (query: Record<string, string>) => {
    const search = new URLSearchParams({ f: 'json', ...query });
    const response = await fetch(`${server.baseURL}/rest/ping?${search.toString()}`);
    return ((await response.json()) as { 'subsonic-response': { status: string } })['subsonic-response'].status;
  };
  expect(await ping({ u: account.username, p: password })).toBe('ok');
  // The login password is not an app password.
  expect(await ping({ u: account.username, p: account.password })).toBe('failed');

  // Revoked, it signs no app in any more.
  await section.getByRole('button', { name: 'Revoke app password' }).click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(dashboard.successAlert('App password revoked')).toBeVisible();
  await expect(section.getByText('No app password yet.')).toBeVisible();
  expect(await ping({ u: account.username, p: password })).toBe('failed');
});
