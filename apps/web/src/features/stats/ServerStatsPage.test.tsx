import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ServerStats } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { ServerStatsPage } from './ServerStatsPage.js';
import { StatsTexts as Texts } from './stats-texts.js';

const route = '/dashboard/server-stats';
const admin = makeUser({ id: 1, username: 'root', role: 'ADMIN' });

function serverStats(days: number): ServerStats {
  return {
    days,
    timeZone: 'UTC',
    mostPlayed: [
      { songId: 3, name: 'Lantern Waltz', artistName: 'Night Ferry', plays: 31, listenedMs: 93 * 60_000, listeners: 4 },
    ],
    activeListeners: Array.from({ length: days }, (_, index) => ({
      day: `2026-06-${String(index + 1).padStart(2, '0')}`,
      listeners: index % 3,
      plays: index,
    })),
    storage: {
      songs: 1200,
      albums: 90,
      artists: 40,
      users: 6,
      listens: 5321,
      audioBytes: 8_400_000_000,
      storedAudioBytes: 400_000_000,
      libraryAudioBytes: 8_000_000_000,
    },
    growth: [
      { month: '2026-04', songsAdded: 1000, bytesAdded: 7_000_000_000, songs: 1000, bytes: 7_000_000_000 },
      { month: '2026-05', songsAdded: 0, bytesAdded: 0, songs: 1000, bytes: 7_000_000_000 },
      { month: '2026-06', songsAdded: 200, bytesAdded: 1_400_000_000, songs: 1200, bytes: 8_400_000_000 },
    ],
  };
}

describe('ServerStatsPage', () => {
  beforeEach(() => {
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('shows administrators the most played, active listeners, storage and growth', async () => {
    mockApi({ 'stats.server': (request) => serverStats(Number(new URL(request.url).searchParams.get('days'))) });
    renderInApp(<ServerStatsPage />, { route, user: admin });
    const played = await screen.findByRole('table', { name: Texts.mostPlayed });
    expect(within(played).getByRole('row', { name: 'Lantern Waltz Night Ferry 31 4 93' })).toBeInTheDocument();
    const active = screen.getByRole('table', { name: Texts.activeListeners });
    expect(within(active).getAllByRole('row')).toHaveLength(31);
    expect(within(active).getByRole('row', { name: '2026-06-03 2' })).toBeInTheDocument();
    const growth = screen.getByRole('table', { name: Texts.growth });
    expect(within(growth).getByRole('row', { name: '2026-06 1,200' })).toBeInTheDocument();
    const storage = screen.getByText(Texts.storageRows.libraryAudioBytes, { selector: 'dt' });
    expect(storage.nextElementSibling).toHaveTextContent('8.0 GB');
    expect(screen.getByText(Texts.storageRows.songs, { selector: 'dt' }).nextElementSibling).toHaveTextContent('1,200');
  });

  it('asks for the days chosen', async () => {
    const api = mockApi({
      'stats.server': (request) => serverStats(Number(new URL(request.url).searchParams.get('days'))),
    });
    renderInApp(<ServerStatsPage />, { route, user: admin });
    fireEvent.click(await screen.findByRole('button', { name: Texts.lastDays(7) }));
    await waitFor(() => {
      expect(within(screen.getByRole('table', { name: Texts.activeListeners })).getAllByRole('row')).toHaveLength(8);
    });
    expect(screen.getByRole('button', { name: Texts.lastDays(7) })).toHaveAttribute('aria-pressed', 'true');
    expect(api.requests('stats.server').map((request) => new URL(request.url).searchParams.get('days'))).toEqual([
      '30',
      '7',
    ]);
  });

  it('sends anyone else home without asking the server', async () => {
    const api = mockApi({});
    renderInApp(<ServerStatsPage />, { route, routes: { '/dashboard': <p>Home</p> } });
    expect(await screen.findByText('Home')).toBeInTheDocument();
    expect(api.calls()).toEqual([]);
  });
});
