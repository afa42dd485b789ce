import { fireEvent, screen, within } from '@testing-library/react';
import { StorageKeys } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, makeArtist, makeSong, makeSongPage, pagedSongs } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { advance, flush } from '../../test/timers.js';
import { DashboardHomePage } from './DashboardHomePage.js';

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
