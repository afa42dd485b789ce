import { expect, test, type Locator, type Page } from '@playwright/test';
import { logIn, newAccount, registerAccount, type Account } from './support/pages/accounts.js';
import { Dashboard } from './support/pages/dashboard.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';
import { currentUser, dismissAlerts, screenshotBoth } from './support/web-app.js';

const server = useTonearmServer();
/** More accounts than one page (20) holds, so paging has something to do. */
const EXTRA_ACCOUNTS = 22;

let listener: Account;

test.beforeAll(async () => {
  listener = newAccount('listener');
  await registerAccount(server.baseURL, listener);
  await Promise.all(
    Array.from({ length: EXTRA_ACCOUNTS }, (_, i) => registerAccount(server.baseURL, newAccount(`fan${i}`))),
  );
});

/** The server sorts names by code point of their lower-case form (SQL lower(), binary collation). */
function byName(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : 0;
}

function table(page: Page): Locator {
  return page.getByRole('table', { name: /^Users/ });
}

/**
 * The usernames of every loaded row, top to bottom. The table is virtualised (only the rows in view are in the DOM),
 * so this scrolls through it from the top, half a screen at a time, and collects the rows by their aria-rowindex.
 */
async function usernames(page: Page): Promise<string[]> {
  const main = page.getByRole('main');
  const byRow = new Map<number, string>();
  await main.evaluate((element) => {
    element.scrollTop = 0;
  });
  for (let step = 0; step < 100; step += 1) {
    // Two frames: the scroll event, then the render of the rows it brings into view.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const rows = await table(page)
      .locator('tbody tr[aria-label]')
      .evaluateAll((elements) =>
        elements.map(
          (row) => [Number(row.getAttribute('aria-rowindex')), row.getAttribute('aria-label') ?? ''] as const,
        ),
      );
    for (const [index, name] of rows) byRow.set(index, name);
    const atEnd = await main.evaluate((element) => {
      const end = element.scrollTop + element.clientHeight >= element.scrollHeight - 1;
      element.scrollTop += element.clientHeight / 2;
      return end;
    });
    if (atEnd) break;
  }
  return [...byRow].sort(([a], [b]) => a - b).map(([, name]) => name);
}

async function openUserList(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await expect(table(page)).toBeVisible();
}

test('an admin pages, sorts and searches the users, grants premium, changes a role and deletes an account', async ({
  page,
}) => {
  const dashboard = new Dashboard(page);
  await logIn(page, server.admin);
  await openUserList(page);
  const total = EXTRA_ACCOUNTS + 2;
  await expect(table(page)).toHaveAccessibleName(`Users (${total})`);

  // Paging: the first page holds 20; the rest loads with the server's cursor, by itself as the end of the list comes
  // into view, or with the button.
  await expect(page.getByText(new RegExp(`^(20|${total}) of ${total} users$`))).toBeVisible();
  const more = page.getByRole('button', { name: 'Load more users' });
  // The list may load the rest by itself between the check and the click (the button then goes): either way counts,
  // and the lines below check that every user came and the button is gone.
  if (await more.isVisible()) await more.click({ timeout: 5_000 }).catch(() => undefined);
  await expect(page.getByText(`${total} of ${total} users`)).toBeVisible();
  await expect(more).toHaveCount(0);
  const allNames = await usernames(page);
  expect(allNames).toHaveLength(total);
  expect(new Set(allNames).size).toBe(total);
  await dismissAlerts(page);
  await screenshotBoth(page, 'user-list');

  // Sorting: by username ascending is the default (across the pages); the header toggles the direction.
  expect(allNames).toEqual([...allNames].sort(byName));
  const userHeader = table(page).getByRole('columnheader', { name: 'User' });
  await expect(userHeader).toHaveAttribute('aria-sort', 'ascending');
  await userHeader.getByRole('button').click();
  await expect(userHeader).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(async () => (await usernames(page))[0]).not.toBe(allNames[0]);
  const descending = await usernames(page);
  expect(descending).toEqual([...descending].sort((a, b) => byName(b, a)));
  const roleHeader = table(page).getByRole('columnheader', { name: 'Role' });
  await roleHeader.getByRole('button').click();
  await expect(roleHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(userHeader).toHaveAttribute('aria-sort', 'none');

  // Search (as you type, debounced) narrows to the listener.
  await page.getByLabel('Search users').fill(listener.username);
  await expect.poll(() => usernames(page)).toEqual([listener.username]);
  const row = table(page).getByRole('row', { name: listener.username });

  // Grant premium.
  await row.getByRole('button', { name: `Grant premium to ${listener.username}` }).click();
  await expect(dashboard.successAlert(`Premium granted to ${listener.username}`)).toBeVisible();
  await expect(row.getByText('Premium, no end date')).toBeVisible();
  await expect(row.getByRole('button', { name: `Revoke premium from ${listener.username}` })).toBeVisible();
  expect(await currentUser(server.baseURL, listener)).toMatchObject({ premium: true });

  // Role: make an admin, then a user again.
  const role = row.getByRole('combobox', { name: `Role of ${listener.username}` });
  await role.selectOption('ADMIN');
  await expect(dashboard.successAlert(`${listener.username} is now an administrator`)).toBeVisible();
  expect(await currentUser(server.baseURL, listener)).toMatchObject({ role: 'ADMIN' });
  await role.selectOption('USER');
  await expect(dashboard.successAlert(`${listener.username} is now a regular user`)).toBeVisible();
  expect(await currentUser(server.baseURL, listener)).toMatchObject({ role: 'USER' });

  // Delete a throwaway account, confirmed.
  const doomed = newAccount('doomed');
  await registerAccount(server.baseURL, doomed);
  await page.getByLabel('Search users').fill(doomed.username);
  await expect.poll(() => usernames(page)).toEqual([doomed.username]);
  await table(page)
    .getByRole('button', { name: `Delete ${doomed.username}` })
    .click();
  await expect(dashboard.confirmDialog).toContainText(`Delete the account “${doomed.username}”?`);
  await dashboard.confirmDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(table(page).getByRole('row', { name: doomed.username })).toBeVisible();
  await table(page)
    .getByRole('button', { name: `Delete ${doomed.username}` })
    .click();
  await dashboard.confirmDialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dashboard.successAlert(`Deleted the account ${doomed.username}`)).toBeVisible();
  await expect(page.getByText(`No users match “${doomed.username}”.`)).toBeVisible();
  const login = await fetch(`${server.baseURL}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: doomed.username, password: doomed.password }),
  });
  expect(login.status).toBe(401);
});

test('a listener cannot open the user list: no link, and the address sends them home', async ({ page }) => {
  const other = newAccount('curious');
  await registerAccount(server.baseURL, other);
  await logIn(page, other);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' })).toHaveCount(0);
  await page.goto('/dashboard/user-list');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: /^Good (Morning|Afternoon|Evening)$/ })).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
  const response = await page.request.get('/api/users');
  expect(response.status()).toBe(403);
});
