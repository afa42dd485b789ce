import { render, screen } from '@testing-library/react';
import { StorageKeys } from '@tonearm/contract';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { errorResponse, makeArtist, makePlaylist, makeSong, makeSongPage, makeUser } from '../test/fixtures.js';
import { mockApi } from '../test/mock-api.js';
import { ConfirmProvider } from '../shell/confirm/ConfirmProvider.js';
import { AppProviders } from './AppProviders.js';
import { dashboardPath } from './pages.js';
import { routes } from './routes.js';

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <AppProviders>
      <ConfirmProvider>
        <RouterProvider router={router} />
      </ConfirmProvider>
    </AppProviders>,
  );
  return router;
}

const admin = makeUser({ id: 1, username: 'root', role: 'ADMIN' });

function loggedInAsAdmin() {
  localStorage.setItem(StorageKeys.user, JSON.stringify(admin));
  return mockApi({
    'users.byId': () => admin,
    'songs.page': () => makeSongPage([makeSong(1, { name: 'So What' })]),
    'artists.list': () => [],
    'playlists.list': () => [makePlaylist(1, { name: 'Road trip' })],
    'payments.plans': () => [{ id: 'monthly', name: 'Monthly', amountCents: 499, currency: 'EUR', periodDays: 30 }],
    'users.list': () => ({ users: [admin], total: 1, nextCursor: null }),
    'libraries.list': () => ({ libraries: [] }),
    'artists.get': (request) =>
      request.url.endsWith('/artists/3')
        ? makeArtist(3, { name: 'Nina Simone' })
        : errorResponse(404, 'not-found', 'Artist not found'),
    'albums.list': () => ({ items: [], nextCursor: null, total: 0 }),
    'artists.credits': () => ({ items: [], nextCursor: null, total: 0 }),
  });
}

describe('routes (SPEC §2)', () => {
  it('/ is the home page with login and registration', async () => {
    mockApi({});
    renderAt('/');
    expect(await screen.findByRole('form', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Sign up' })).toBeInTheDocument();
  });

  it('/dashboard without a user goes to /', async () => {
    mockApi({});
    const router = renderAt('/dashboard/songs');
    expect(await screen.findByRole('form', { name: 'Log in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('/dashboard shows the loader while the stored user is being checked', () => {
    localStorage.setItem(StorageKeys.user, JSON.stringify(admin));
    mockApi({ 'users.byId': () => new Promise<Response>(() => undefined) });
    renderAt('/dashboard');
    expect(screen.getByRole('status').textContent).toContain('Checking your session');
  });

  it('any other path shows the not-found page with a link home', async () => {
    mockApi({});
    renderAt('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go home' }).getAttribute('href')).toBe('/');
  });

  it('an unknown address under /dashboard shows the not-found page to someone signed out', async () => {
    mockApi({});
    const router = renderAt('/dashboard/no-such-page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go home' }).getAttribute('href')).toBe('/');
    expect(router.state.location.pathname).toBe('/dashboard/no-such-page');
  });

  it('an artist’s address (issue 26) is a dashboard page: someone signed out is asked to log in', async () => {
    mockApi({});
    const router = renderAt('/dashboard/artist/7');
    expect(await screen.findByRole('form', { name: 'Log in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('an id under a page that takes none is not found for someone signed out', async () => {
    mockApi({});
    const router = renderAt('/dashboard/songs/7');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard/songs/7');
  });

  it('an unknown address under /dashboard shows not found inside the shell, with a way home, when signed in', async () => {
    loggedInAsAdmin();
    renderAt('/dashboard/no-such-page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' }, { timeout: 3000 })).toBeVisible();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Player' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Home' }).getAttribute('href')).toBe('/dashboard');
  });

  it.each([
    ['/dashboard', /Good (Morning|Afternoon|Evening)/],
    ['/dashboard/songs', 'Songs'],
    ['/dashboard/artist', 'Artists'],
    ['/dashboard/playlist', 'Playlists'],
    ['/dashboard/create-playlist', 'Create playlist'],
    ['/dashboard/downloaded', 'Downloaded'],
    ['/dashboard/payment', 'Listen without limits'],
    ['/dashboard/user-list', 'Users'],
    ['/dashboard/libraries', 'Libraries'],
    ['/dashboard/search', 'Search'],
    ['/dashboard/artist/3', 'Nina Simone'],
    ['/dashboard/artist/999', 'Artist not found'],
    ['/dashboard/artist/nina', 'Artist not found'],
  ])('%s renders inside the dashboard shell', async (path, heading) => {
    loggedInAsAdmin();
    renderAt(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading }, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Player' })).toBeInTheDocument();
  });
});

describe('dashboardPath', () => {
  it('names the route path a dashboard address would have, an id segment as :id', () => {
    expect(dashboardPath('/dashboard')).toBe('');
    expect(dashboardPath('/dashboard/')).toBe('');
    expect(dashboardPath('/dashboard/songs')).toBe('songs');
    expect(dashboardPath('/dashboard/songs/')).toBe('songs');
    expect(dashboardPath('/dashboard/artist/7')).toBe('artist/:id');
    expect(dashboardPath('/dashboard/artist/7/')).toBe('artist/:id');
    expect(dashboardPath('/dashboard/artist/7/songs')).toBeNull();
    expect(dashboardPath('/dashboards')).toBeNull();
    expect(dashboardPath('/')).toBeNull();
  });
});
