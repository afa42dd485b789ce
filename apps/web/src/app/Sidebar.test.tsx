import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../test/fixtures.js';
import { mockApi } from '../test/mock-api.js';
import { renderInApp } from '../test/render.js';
import { Sidebar } from './Sidebar.js';

/** The main navigation's links marked as the current page, at `route`. */
function currentAt(route: string | { pathname: string; state?: unknown }): string[] {
  mockApi({ 'libraries.list': () => ({ libraries: [] }) });
  renderInApp(<Sidebar id="sidebar" open={false} onClose={() => undefined} />, { route });
  return screen
    .getAllByRole('link')
    .filter((link) => link.getAttribute('aria-current') === 'page')
    .map((link) => link.textContent);
}

describe('the sidebar’s current page (issue 26)', () => {
  it('opens Search at its own page', () => {
    mockApi({ 'libraries.list': () => ({ libraries: [] }) });
    renderInApp(<Sidebar id="sidebar" open={false} onClose={() => undefined} />, { route: '/dashboard' });
    expect(screen.getByRole('link', { name: 'Search' }).getAttribute('href')).toBe('/dashboard/search');
  });

  it.each([
    ['/dashboard/search', ['Search']],
    ['/dashboard/search?q=night', ['Search']],
    ['/dashboard/songs', ['Search']],
    ['/dashboard/search?liked=1', ['Liked']],
    ['/dashboard/songs?liked=1', ['Liked']],
    ['/dashboard/artist', ['Artists']],
    ['/dashboard/artist/3', ['Artists']],
    ['/dashboard/stats', ['Your stats']],
  ])('at %s marks %j', (route, current) => {
    expect(currentAt(route)).toEqual(current);
  });

  it('marks Artists for an artist’s songs reached with artist details (SPEC §2)', () => {
    expect(currentAt({ pathname: '/dashboard/songs', state: { artist: { id: 3, name: 'Nina Simone' } } })).toEqual([
      'Artists',
    ]);
  });
});

describe('the statistics in the sidebar (issue 28)', () => {
  it('offers every listener their own, and administrators the server’s', () => {
    mockApi({ 'libraries.list': () => ({ libraries: [] }) });
    const { unmount } = renderInApp(<Sidebar id="sidebar" open={false} onClose={() => undefined} />, {
      route: '/dashboard',
    });
    expect(screen.getByRole('link', { name: 'Your stats' })).toHaveAttribute('href', '/dashboard/stats');
    expect(screen.queryByRole('link', { name: 'Server stats' })).toBeNull();
    unmount();
    renderInApp(<Sidebar id="sidebar" open={false} onClose={() => undefined} />, {
      route: '/dashboard',
      user: makeUser({ role: 'ADMIN' }),
    });
    expect(screen.getByRole('link', { name: 'Server stats' })).toHaveAttribute('href', '/dashboard/server-stats');
  });
});
