import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ListeningStats, YearSummary } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { browserTimeZone } from './queries.js';
import { StatsPage } from './StatsPage.js';
import { StatsTexts as Texts } from './stats-texts.js';

const route = '/dashboard/stats';
const amount = (plays: number, minutes: number) => ({ plays, listenedMs: minutes * 60_000 });

function statsOf(overrides: Partial<ListeningStats> = {}): ListeningStats {
  return {
    period: 'month',
    timeZone: 'UTC',
    from: '2026-05-16T12:00:00.000Z',
    to: '2026-06-15T12:00:00.000Z',
    ...amount(42, 125),
    minutes: 125,
    topSongs: [
      { songId: 1, name: 'Lantern Waltz', artistName: 'Night Ferry', ...amount(9, 30) },
      { songId: 2, name: 'Harbour Lights', artistName: 'Night Ferry', ...amount(4, 12) },
    ],
    topArtists: [{ artistId: 5, name: 'Night Ferry', ...amount(13, 42) }],
    topAlbums: [{ albumId: 8, name: 'Crossings', artistName: 'Night Ferry', ...amount(13, 42) }],
    topGenres: [{ genre: 'Folk', ...amount(13, 42) }],
    byHour: Array.from({ length: 24 }, (_, hour) => ({ hour, ...amount(hour === 21 ? 5 : 0, hour === 21 ? 17 : 0) })),
    byWeekday: Array.from({ length: 7 }, (_, index) => ({ weekday: index + 1, ...amount(index, index * 3) })),
    discoveries: {
      songCount: 3,
      artistCount: 1,
      songs: [{ songId: 2, name: 'Harbour Lights', artistName: 'Night Ferry', ...amount(4, 12) }],
      artists: [{ artistId: 5, name: 'Night Ferry', ...amount(13, 42) }],
    },
    ...overrides,
  };
}

function yearOf(year: number, minutes: number): YearSummary {
  return {
    year,
    timeZone: 'UTC',
    ...amount(10, minutes),
    minutes,
    topSongs: [],
    topArtists: [],
    topGenres: [],
    byMonth: Array.from({ length: 12 }, (_, index) => ({ month: index + 1, ...amount(0, 0) })),
    newArtistCount: 0,
  };
}

/** The figure shown under `label`. */
function figure(label: string): string | null {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent ?? null;
}

describe('StatsPage', () => {
  const thisYear = new Date().getFullYear();

  beforeEach(() => {
    // jsdom draws nothing: the charts are their tables here (the e2e test sees the canvas in Chromium).
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  function mockStats() {
    return mockApi({
      'stats.mine': (request) => {
        const period = new URL(request.url).searchParams.get('period');
        return period === 'week' ? statsOf({ period: 'week', ...amount(3, 7.25), minutes: 7 }) : statsOf();
      },
      'stats.year': (request) => yearOf(Number(new URL(request.url).pathname.split('/').at(-1)), 321),
    });
  }

  it('shows the month’s minutes, listens and discoveries, asked in the browser’s time zone', async () => {
    const api = mockStats();
    renderInApp(<StatsPage />, { route });
    expect(await screen.findByRole('heading', { name: Texts.pageTitle, level: 1 })).toBeInTheDocument();
    await waitFor(() => {
      expect(figure(Texts.minutesListened)).toBe('125');
    });
    expect(figure(Texts.listens)).toBe('42');
    expect(figure(Texts.newSongs)).toBe('3');
    expect(figure(Texts.newArtists)).toBe('1');
    const [request] = api.requests('stats.mine');
    const query = new URL(request?.url ?? '').searchParams;
    expect([query.get('period'), query.get('tz')]).toEqual(['month', browserTimeZone()]);
    expect(screen.getByRole('button', { name: Texts.periods.month })).toHaveAttribute('aria-pressed', 'true');
  });

  it('lists the top songs, artists (linked), albums (linked) and genres with their listens and minutes', async () => {
    mockStats();
    renderInApp(<StatsPage />, { route });
    const songs = await screen.findByRole('region', { name: Texts.topSongs });
    const rows = within(songs).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      'Lantern WaltzNight Ferry9 listens · 30 min',
      'Harbour LightsNight Ferry4 listens · 12 min',
    ]);
    const artists = screen.getByRole('region', { name: Texts.topArtists });
    expect(within(artists).getByRole('link', { name: 'Night Ferry' })).toHaveAttribute('href', '/dashboard/artist/5');
    const albums = screen.getByRole('region', { name: Texts.topAlbums });
    expect(within(albums).getByRole('link', { name: 'Crossings' })).toHaveAttribute('href', '/dashboard/album?id=8');
    expect(within(screen.getByRole('region', { name: Texts.topGenres })).getByText('Folk')).toBeInTheDocument();
    const discovered = screen.getByRole('region', { name: Texts.newSongs });
    expect(within(discovered).getByText('Harbour Lights')).toBeInTheDocument();
  });

  it('gives each chart its numbers as a table: minutes by local hour and by weekday', async () => {
    mockStats();
    renderInApp(<StatsPage />, { route });
    const hours = await screen.findByRole('table', { name: Texts.byHour });
    expect(within(hours).getAllByRole('row')).toHaveLength(25);
    expect(within(hours).getByRole('row', { name: '21:00 17 min' })).toBeInTheDocument();
    const weekdays = screen.getByRole('table', { name: Texts.byWeekday });
    expect(within(weekdays).getByRole('row', { name: 'Sunday 18 min' })).toBeInTheDocument();
    // The canvas is decoration for assistive technology; the figure is named by its caption.
    expect(screen.getByRole('figure', { name: Texts.byHour }).querySelector('canvas')).toHaveAttribute(
      'aria-hidden',
      'true',
    );
  });

  it('switches the period, and says so when nothing was heard', async () => {
    const api = mockApi({
      'stats.mine': (request) =>
        new URL(request.url).searchParams.get('period') === 'all'
          ? statsOf({ period: 'all', ...amount(0, 0), minutes: 0, topSongs: [] })
          : statsOf({ period: 'week', ...amount(3, 7.25), minutes: 7 }),
      'stats.year': () => yearOf(thisYear, 0),
    });
    renderInApp(<StatsPage />, { route });
    fireEvent.click(await screen.findByRole('button', { name: Texts.periods.week }));
    await waitFor(() => {
      // Tenths under ten minutes.
      expect(figure(Texts.minutesListened)).toBe('7.2');
    });
    expect(screen.getByRole('button', { name: Texts.periods.week })).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(screen.getByRole('button', { name: Texts.periods.all }));
    expect(await screen.findByText(Texts.nothingYet)).toBeInTheDocument();
    expect(api.requests('stats.mine').map((request) => new URL(request.url).searchParams.get('period'))).toEqual([
      'month',
      'week',
      'all',
    ]);
  });

  it('shows the year’s card from the server, to download, for this year or one before', async () => {
    mockStats();
    renderInApp(<StatsPage />, { route });
    const tz = encodeURIComponent(browserTimeZone()).replaceAll('%20', '+');
    const card = await screen.findByRole('img', { name: Texts.yearCardAlt(thisYear, 321) });
    expect(card.getAttribute('src')).toBe(`/api/stats/year/${thisYear}/card.png?tz=${tz}`);
    const download = screen.getByRole('link', { name: Texts.downloadCard });
    expect(download).toHaveAttribute('href', card.getAttribute('src'));
    expect(download).toHaveAttribute('download', `tonearm-${thisYear}.png`);
    fireEvent.change(screen.getByLabelText(Texts.yearLabel), { target: { value: String(thisYear - 1) } });
    const before = await screen.findByRole('img', { name: Texts.yearCardAlt(thisYear - 1, 321) });
    expect(before.getAttribute('src')).toContain(`/api/stats/year/${thisYear - 1}/card.png`);
    // No Web Share in jsdom: no Share button.
    expect(screen.queryByRole('button', { name: Texts.shareCard })).toBeNull();
  });

  it('shares the card as a PNG file where the browser can', async () => {
    // Text stands for the bytes (jsdom's typed arrays are not the fetch Response's own).
    const png = 'PNG-BYTES';
    const api = mockApi({
      'stats.mine': () => statsOf(),
      'stats.year': () => yearOf(thisYear, 5),
      'stats.yearCard': () => new Response(png, { headers: { 'content-type': 'image/png' } }),
    });
    const share = vi.fn((_data: ShareData) => Promise.resolve());
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { share, canShare: () => true }));
    renderInApp(<StatsPage />, { route });
    fireEvent.click(await screen.findByRole('button', { name: Texts.shareCard }));
    await waitFor(() => {
      expect(share).toHaveBeenCalledTimes(1);
    });
    const [file] = share.mock.calls[0]?.[0].files ?? [];
    expect([file?.name, file?.type, file?.size]).toEqual([`tonearm-${thisYear}.png`, 'image/png', png.length]);
    expect(api.requests('stats.yearCard')).toHaveLength(1);
  });

  it('links the listens’ CSV and JSON export', async () => {
    mockStats();
    renderInApp(<StatsPage />, { route });
    expect(await screen.findByRole('link', { name: Texts.exportCsv })).toHaveAttribute(
      'href',
      '/api/listens/export.csv',
    );
    expect(screen.getByRole('link', { name: Texts.exportJson })).toHaveAttribute('href', '/api/listens/export.json');
  });
});
