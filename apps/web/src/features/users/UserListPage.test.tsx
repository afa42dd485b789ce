import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SEARCH_DEBOUNCE_MS } from '../../lib/useDebouncedValue.js';
import { errorResponse, jsonResponse, makeUser } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { advance, flush } from '../../test/timers.js';
import { UserListPage } from './UserListPage.js';

const admin = makeUser({ id: 1, username: 'root', role: 'ADMIN' });
const ada = makeUser({ id: 7, username: 'ada', email: 'ada@example.com' });
function usersApi(total = 2) {
  return mockApi({
    'users.list': () => ({ users: [ada, admin], total }),
    'users.update': async (request) => {
      const changes = (await request.clone().json()) as Record<string, unknown>;
      return jsonResponse({ ...ada, ...changes, premium: changes.premium === true });
    },
    'users.remove': () => new Response(null, { status: 204 }),
  });
}

describe('/dashboard/user-list', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends everyone but administrators home, without asking the server', async () => {
    const api = mockApi({});
    renderInApp(<UserListPage />, { route: '/dashboard/user-list', routes: { '/dashboard': <p>Home</p> } });
    await flush();
    expect(screen.getByTestId('location').textContent).toBe('/dashboard');
    expect(api.calls()).toEqual([]);
  });

  it('lists a page of users sorted by name, and asks the server again to sort, page and search', async () => {
    const api = usersApi(45);
    renderInApp(<UserListPage />, { user: admin, route: '/dashboard/user-list' });
    await flush();
    expect(api.calls()).toEqual(['GET /api/users?sort=username&order=asc&limit=20&offset=0']);
    expect(screen.getByRole('table', { name: 'Users (45)' })).toBeInTheDocument();
    expect(screen.getByText('1–20 of 45 · Page 1 of 3')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Email' }));
    await flush();
    expect(api.calls().at(-1)).toBe('GET /api/users?sort=email&order=asc&limit=20&offset=0');
    expect(screen.getByRole('columnheader', { name: 'Email' }).getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(screen.getByRole('button', { name: 'Email' }));
    await flush();
    expect(api.calls().at(-1)).toBe('GET /api/users?sort=email&order=desc&limit=20&offset=0');

    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await flush();
    expect(api.calls().at(-1)).toBe('GET /api/users?sort=email&order=desc&limit=20&offset=20');

    fireEvent.change(screen.getByLabelText('Search users'), { target: { value: 'ad' } });
    await advance(SEARCH_DEBOUNCE_MS);
    await flush();
    expect(api.calls().at(-1)).toBe('GET /api/users?q=ad&sort=email&order=desc&limit=20&offset=0');
  });

  it('grants premium and changes a role through PUT /api/users/{id}', async () => {
    const api = usersApi();
    const view = renderInApp(<UserListPage />, { user: admin, route: '/dashboard/user-list' });
    await flush();
    const row = screen.getByRole('row', { name: 'ada' });
    fireEvent.click(within(row).getByRole('button', { name: 'Grant premium to ada' }));
    await flush();
    const puts = api.requests('users.update');
    expect(puts[0]?.url).toBe('http://localhost/api/users/7');
    expect(await puts[0]?.json()).toEqual({ premium: true });
    expect(view.alertMessages()).toEqual(['Premium granted to ada']);

    fireEvent.change(within(row).getByRole('combobox', { name: 'Role of ada' }), { target: { value: 'ADMIN' } });
    await flush();
    expect(await api.requests('users.update')[1]?.json()).toEqual({ role: 'ADMIN' });
    // The signed-in admin's own row offers neither a role change nor deletion.
    const own = screen.getByRole('row', { name: 'root' });
    expect(within(own).getByRole<HTMLSelectElement>('combobox').disabled).toBe(true);
    expect(within(own).queryByRole('button', { name: 'Delete root' })).toBeNull();
  });

  it('deletes an account only after the confirm dialog', async () => {
    const api = usersApi();
    const view = renderInApp(<UserListPage />, { user: admin, route: '/dashboard/user-list' });
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Delete ada' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Are you sure?' });
    expect(dialog.textContent).toContain('Delete the account “ada”?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.requests('users.remove')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Delete ada' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await flush();
    expect(api.requests('users.remove').map((request) => request.url)).toEqual(['http://localhost/api/users/7']);
    expect(view.alertMessages()).toEqual(['Deleted the account ada']);
  });

  it('adds a user from the “Add user” dialog with POST /api/users, and shows a taken name under its field', async () => {
    const created = makeUser({ id: 12, username: 'newbie', email: 'newbie@example.com' });
    let taken = true;
    const api = mockApi({
      'users.list': () => ({ users: [admin], total: 1 }),
      'users.create': () =>
        taken ? errorResponse(409, 'conflict', 'Username already taken', 'username') : jsonResponse(created, 201),
    });
    const view = renderInApp(<UserListPage />, { user: admin, route: '/dashboard/user-list' });
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Add user' }));
    const dialog = screen.getByRole('dialog', { name: 'Add user' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create account' }));
    expect(within(dialog).getByText('Username must be at least 3 characters')).toBeInTheDocument();
    expect(api.requests('users.create')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Username'), { target: { value: 'newbie' } });
    fireEvent.change(within(dialog).getByLabelText('Email'), { target: { value: 'newbie@example.com' } });
    fireEvent.change(within(dialog).getByLabelText(/^Password/), { target: { value: 'first-secret' } });
    fireEvent.change(within(dialog).getByLabelText('Role'), { target: { value: 'ADMIN' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create account' }));
    await flush();
    expect(within(dialog).getByText('Username already taken')).toBeInTheDocument();

    taken = false;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create account' }));
    await flush();
    expect(await api.requests('users.create')[1]?.json()).toEqual({
      username: 'newbie',
      email: 'newbie@example.com',
      password: 'first-secret',
      role: 'ADMIN',
    });
    expect(screen.queryByRole('dialog', { name: 'Add user' })).toBeNull();
    expect(view.alertMessages()).toEqual(['Created the account newbie']);
    expect(api.calls().filter((call) => call.startsWith('GET /api/users')).length).toBeGreaterThan(1);
  });
});
