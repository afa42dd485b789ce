import { act, screen, within } from '@testing-library/react';
import { StorageKeys } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeArtist, makeSong } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
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
      'GET /api/songs': () => jsonResponse([makeSong(1, { name: 'So What' })]),
      'GET /artists': () => jsonResponse([makeArtist(3, { name: 'Nina Simone' })]),
    });
    renderInApp(<DashboardHomePage />, { route: '/dashboard' });
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByRole('heading', { level: 1, name: 'Good Afternoon' })).toBeTruthy();
    const recent = screen.getByRole('list', { name: 'Recently played' });
    expect(within(recent).getByRole('listitem', { name: 'Played before' })).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Songs' })).getByRole('listitem', { name: 'So What' })).toBeTruthy();
    expect(
      within(screen.getByRole('list', { name: 'Artists' })).getByRole('link', { name: 'Nina Simone' }),
    ).toBeTruthy();
  });
});
