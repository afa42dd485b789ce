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
    'users.list': () => ({ users: [ada, admin], total, nextCursor: null }),
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

  it('lists the first page sorted by name, loads more with the cursor, and starts again to sort and search', async () => {
    const everyone = Array.from({ length: 7 }, (_, i) => makeUser({ id: 100 + i, username: `fan${100 + i}` }));
    // Pages of 3 (the server may answer fewer than the limit) after the cursor it gave ("after:<index>"); the sort is
    // the server's business.
    const api = mockApi({
      'users.list': (request) => {
        const params = new URL(request.url).searchParams;
        const start = Number(params.get('cursor')?.replace('after:', '') ?? 0);
        const end = Math.min(start + 3, everyone.length);
        const nextCursor = end < everyone.length ? `after:${end}` : null;
        return { users: everyone.slice(start, end), total: everyone.length, nextCursor };
      },
    });
    renderInApp(<UserListPage />, { user: admin, route: '/dashboard/user-list' });
    await flush();
    expect(api.calls()).toEqual(['GET /api/users?sort=username&order=asc&limit=20']);
    expect(document.querySelector('table caption')?.textContent).toBe('Users (7)');
    expect(screen.getByText('3 of 7 users')).toBeInTheDocument();
    // (Selectors, and role queries inside the header only: over rows of controls they are slow in jsdom.)
    const rows = () => document.querySelectorAll('tbody tr').length;
    const header = (name: string) => {
      const head = document.querySelector('thead');
      if (!head) throw new Error('no table header');
      return within(head).getByRole('button', { name });
    };
    const loadMore = () => screen.queryByText('Load more users');
    expect(rows()).toBe(3);

    fireEvent.click(header('Email'));
    await flush();
    expect(api.calls().at(-1)).toBe('GET /api/users?sort=email&order=asc&limit=20');
    expect(header('Email').closest('th')?.getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(header('Email'));
    await flush();
    expect(api.calls().at(-1)).toBe('GET /api/users?sort=email&order=desc&limit=20');

    // More of the same sort, from the cursor the last page gave.
    fireEvent.click(loadMore() ?? document.body);
    await flush();
    expect(api.calls().at(-1)).toBe('GET /api/users?sort=email&order=desc&limit=20&cursor=after%3A3');
    expect(rows()).toBe(6);
    fireEvent.click(loadMore() ?? document.body);
    await flush();
    expect(api.calls().at(-1)).toBe('GET /api/users?sort=email&order=desc&limit=20&cursor=after%3A6');
    expect(rows()).toBe(7);
    expect(screen.getByText('7 of 7 users')).toBeInTheDocument();
    expect(loadMore()).toBeNull();

    // A new sort or search starts at the first page again.
    fireEvent.click(header('Role'));
    await flush();
    expect(api.calls().at(-1)).toBe('GET /api/users?sort=role&order=asc&limit=20');
    expect(rows()).toBe(3);
    fireEvent.change(screen.getByLabelText('Search users'), { target: { value: 'ad' } });
    await advance(SEARCH_DEBOUNCE_MS);
    await flush();
    expect(api.calls().at(-1)).toBe('GET /api/users?q=ad&sort=role&order=asc&limit=20');
    expect(api.calls()).toHaveLength(7);
  });

  it('loads the next page by itself when the end of the list scrolls into view', async () => {
    const observers: { callback: IntersectionObserverCallback; target?: Element }[] = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(callback: IntersectionObserverCallback) {
          observers.push({ callback });
        }
        observe(target: Element) {
          const observer = observers.at(-1);
          if (observer) observer.target = target;
        }
        disconnect() {
          observers.length = 0;
        }
      },
    );
    const api = mockApi({
      'users.list': (request) =>
        new URL(request.url).searchParams.has('cursor')
          ? { users: [admin], total: 2, nextCursor: null }
          : { users: [ada], total: 2, nextCursor: 'c1' },
    });
    renderInApp(<UserListPage />, { user: admin, route: '/dashboard/user-list' });
    await flush();
    expect(api.calls()).toHaveLength(1);
    const [observer] = observers;
    expect(observer?.target?.textContent).toBe('Load more users');
    const seen = { isIntersecting: true, target: observer?.target } as IntersectionObserverEntry;
    observer?.callback([seen], {} as IntersectionObserver);
    await flush();
    expect(api.calls().at(-1)).toBe('GET /api/users?sort=username&order=asc&limit=20&cursor=c1');
    expect(screen.getAllByRole('row').map((row) => row.getAttribute('aria-label'))).toEqual([null, 'ada', 'root']);
  });

  it('keeps only the rows in view in the DOM, and says where each is in the whole list', async () => {
    const many = Array.from({ length: 500 }, (_, i) => makeUser({ id: 1000 + i, username: `listener${1000 + i}` }));
    mockApi({ 'users.list': () => ({ users: many, total: 2_000, nextCursor: 'more' }) });
    renderInApp(<UserListPage />, { user: admin, route: '/dashboard/user-list' });
    await flush();
    expect(screen.getByText('500 of 2000 users')).toBeInTheDocument();
    const table = document.querySelector('table');
    expect(table?.getAttribute('aria-rowcount')).toBe('2001');
    const rows = [...document.querySelectorAll('tbody tr[aria-label]')];
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(60);
    expect(rows[0]?.getAttribute('aria-label')).toBe('listener1000');
    expect(rows.map((row) => Number(row.getAttribute('aria-rowindex')))).toEqual(rows.map((_, i) => i + 2));
    // The rows out of view still take their room, so the scroll bar spans every loaded user.
    const spacer = document.querySelector<HTMLElement>('tbody tr.table__spacer');
    expect(Number.parseFloat(spacer?.style.height ?? '0')).toBeGreaterThan(400 * 50);
  });

  it('sorts from the select that stands in for the column headers where cards replace the table', async () => {
    const api = usersApi();
    renderInApp(<UserListPage />, { user: admin, route: '/dashboard/user-list' });
    await flush();
    const select = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Sort users' });
    expect(select.value).toBe('username:asc');
    fireEvent.change(select, { target: { value: 'email:desc' } });
    await flush();
    expect(api.calls().at(-1)).toBe('GET /api/users?sort=email&order=desc&limit=20');
    expect(
      screen
        .getByRole('button', { name: /^Email/ })
        .closest('th')
        ?.getAttribute('aria-sort'),
    ).toBe('descending');
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
    // An administrator has every premium feature: not "Free", and nothing to grant (issue 26).
    expect(within(own).getByText('Included as admin')).toBeInTheDocument();
    expect(within(own).queryByText('Free')).toBeNull();
    expect(within(own).queryByRole('button', { name: 'Grant premium to root' })).toBeNull();
    // The role select looks like the form control it is.
    expect(within(row).getByRole('combobox', { name: 'Role of ada' }).classList.contains('input')).toBe(true);
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
      'users.list': () => ({ users: [admin], total: 1, nextCursor: null }),
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
