import { fireEvent, screen, within } from '@testing-library/react';
import { StorageKeys, type AlbumSummary } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, makeArtist, makeSong, makeSongPage, pagedSongs } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { advance, flush } from '../../test/timers.js';
import { DashboardHomePage } from './DashboardHomePage.js';

function albumSummary(id: number, name: string): AlbumSummary {
  return {
    id,
    name,
    artistId: 3,
    artistName: 'Artist 3',
    year: null,
    imgLink: '',
    songCount: 9,
    durationMs: 2_000_000,
    placeholder: false,
  };
}

describe('/dashboard home', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date(2025, 5, 14, 17, 59), toFake: ['setTimeout', 'setInterval', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('greets by time of day and shows recently played, songs and artists', async () => {
    localStorage.setItem(StorageKeys.recentSongs, JSON.stringify([makeSong(9, { name: 'Played before' })]));
    mockApi({
      'songs.page': () => makeSongPage([makeSong(1, { name: 'So What' })]),
      'artists.list': () => [makeArtist(3, { name: 'Nina Simone' })],
    });
    renderInApp(<DashboardHomePage />, { route: '/dashboard' });
    await flush();
    expect(screen.getByRole('heading', { level: 1, name: 'Good Afternoon' })).toBeInTheDocument();
    const recent = screen.getByRole('list', { name: 'Recently played' });
    expect(within(recent).getByRole('listitem', { name: 'Played before' })).toBeInTheDocument();
    expect(
      within(screen.getByRole('list', { name: 'Songs' })).getByRole('listitem', { name: 'So What' }),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('list', { name: 'Artists' })).getByRole('link', { name: 'Nina Simone' }),
    ).toBeInTheDocument();
  });

  it('shows the albums added last, newest first, linking to their pages', async () => {
    const api = mockApi({
      'songs.page': () => makeSongPage([]),
      'artists.list': () => [],
      'albums.list': () => ({
        items: [
          { ...albumSummary(8, 'Fresh Out'), year: 2026 },
          { ...albumSummary(2, 'Older One'), year: null, artistName: 'Nina Simone' },
        ],
        nextCursor: 'more',
        total: 30,
      }),
    });
    renderInApp(<DashboardHomePage />, { route: '/dashboard' });
    await flush();
    expect(new URL(api.requests('albums.list')[0]?.url ?? '').searchParams.get('sort')).toBe('recent');
    const shelf = screen.getByRole('list', { name: 'Recently added albums' });
    const links = within(shelf).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('aria-label'))).toEqual(['Fresh Out', 'Older One']);
    expect(links[0]?.getAttribute('href')).toBe('/dashboard/album?id=8');
    expect(links[0]?.textContent).toContain('2026');
    expect(links[1]?.textContent).toContain('Album · Nina Simone');
  });

  it('leaves the album shelf out while the catalogue has no albums', async () => {
    mockApi({
      'songs.page': () => makeSongPage([]),
      'artists.list': () => [],
      'albums.list': () => ({ items: [], nextCursor: null, total: 0 }),
    });
    renderInApp(<DashboardHomePage />, { route: '/dashboard' });
    await flush();
    expect(screen.queryByRole('region', { name: 'Recently added albums' })).toBeNull();
  });

  it('says the songs could not be loaded, not that the catalogue is empty, once loading gave up', async () => {
    mockApi({
      'songs.page': () => errorResponse(500, 'internal', 'Something went wrong on our side. Please try again.'),
      'artists.list': () => [],
    });
    renderInApp(<DashboardHomePage />, { route: '/dashboard' });
    // SPEC §4: five attempts, 5 s apart.
    await advance(5 * 5000);
    const songs = screen.getByRole('region', { name: 'Songs' });
    expect(within(songs).getByText('Songs could not be loaded.')).toBeInTheDocument();
    expect(within(songs).queryByText('No songs in the catalogue yet.')).toBeNull();
  });

  it('shows the first page of the catalogue only, and plays on through the source from a tile', async () => {
    const catalogue = Array.from({ length: 120 }, (_, index) => makeSong(index + 1));
    const api = mockApi({ 'songs.page': pagedSongs(catalogue, 50), 'artists.list': () => [] });
    const view = renderInApp(<DashboardHomePage />, { route: '/dashboard' });
    await advance(1);
    expect(api.requests('songs.page')).toHaveLength(1);
    const shelf = screen.getByRole('list', { name: 'Songs' });
    expect(within(shelf).getAllByRole('listitem')).toHaveLength(12);
    const playFrom = vi.spyOn(view.player.controls, 'playFrom');
    fireEvent.click(within(shelf).getByRole('button', { name: 'Play Song 2' }));
    expect(playFrom).toHaveBeenCalledWith({
      source: expect.objectContaining({ kind: 'catalogue', order: 'shuffle' }) as unknown,
      songs: catalogue.slice(0, 50),
      nextCursor: 'at50',
      index: 1,
    });
    await advance(60_000);
    expect(api.requests('songs.page')).toHaveLength(1);
  });
});
