import { fireEvent, screen, within } from '@testing-library/react';
import {
  LibraryClientMessages,
  LibraryMessages,
  StorageKeys,
  type AlbumSummary,
  type Library,
} from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  errorResponse,
  jsonResponse,
  makeArtist,
  makeLibrary,
  makeScan,
  makeSong,
  makeSongPage,
  makeUser,
  pagedSongs,
} from '../../test/fixtures.js';
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
    const api = mockApi({
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
    // The shelf's twelve, not the whole list (thousands at library scale).
    expect(api.requests('artists.list').map((request) => new URL(request.url).search)).toEqual(['?limit=12']);
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

describe('/dashboard home: the administrator’s first step', () => {
  const admin = makeUser({ id: 1, username: 'root', role: 'ADMIN' });
  const step = () => screen.queryByRole('region', { name: LibraryClientMessages.firstStepTitle });

  beforeEach(() => {
    vi.useFakeTimers({ now: new Date(2025, 5, 14, 9, 0), toFake: ['setTimeout', 'setInterval', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('offers an administrator without a library to add the music folder, at the top, and hides once one is added', async () => {
    const music = makeLibrary(1, { name: 'Music', path: '/srv/music', scan: makeScan({ state: 'running' }) });
    let libraries: Library[] = [];
    let answer = (): Response => errorResponse(400, 'bad-request', LibraryMessages.pathMissing, 'path');
    const api = mockApi({
      'songs.page': () => makeSongPage([]),
      'artists.list': () => [],
      'libraries.list': () => ({ libraries }),
      'libraries.create': () => answer(),
    });
    const view = renderInApp(<DashboardHomePage />, { user: admin, route: '/dashboard' });
    await flush();
    const region = step();
    if (region === null) throw new Error('no first step');
    // Above the shelves (the catalogue's songs, the demo's on a new server, stay below it).
    for (const shelf of ['Recently played', 'Songs', 'Artists']) {
      const below = screen.getByRole('region', { name: shelf });
      expect(region.compareDocumentPosition(below) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    }
    expect(region.textContent).toContain(LibraryClientMessages.firstStepIntro);

    const form = within(region).getByRole('form', { name: LibraryClientMessages.firstStepTitle });
    const path = within(form).getByLabelText(LibraryClientMessages.pathLabel);
    fireEvent.change(path, { target: { value: '/srv/nowhere' } });
    fireEvent.click(within(form).getByRole('button', { name: LibraryClientMessages.add }));
    await flush();
    // The server's check, under the field.
    expect(within(form).getByText(LibraryMessages.pathMissing)).toBeInTheDocument();
    expect(path.getAttribute('aria-invalid')).toBe('true');
    expect(step()).not.toBeNull();

    answer = () => {
      libraries = [music];
      return jsonResponse(music, 201);
    };
    fireEvent.change(path, { target: { value: '/srv/music' } });
    fireEvent.click(within(form).getByRole('button', { name: LibraryClientMessages.add }));
    await flush();
    expect(await api.requests('libraries.create')[1]?.json()).toEqual({ path: '/srv/music' });
    expect(view.alertMessages()).toEqual([LibraryClientMessages.libraryAdded('Music')]);
    expect(step()).toBeNull();
  });

  it('is not shown to a listener, who never asks for the libraries', async () => {
    const api = mockApi({
      'songs.page': () => makeSongPage([]),
      'artists.list': () => [],
      'libraries.list': () => ({ libraries: [] }),
    });
    renderInApp(<DashboardHomePage />, { user: makeUser({ role: 'USER', premium: true }), route: '/dashboard' });
    await flush();
    expect(screen.getByRole('heading', { level: 1, name: 'Good Morning' })).toBeInTheDocument();
    expect(step()).toBeNull();
    expect(api.requests('libraries.list')).toHaveLength(0);
  });

  it('is not shown once a library exists, nor when the list cannot be read (and says nothing then)', async () => {
    let answer = (): Response | { libraries: Library[] } => ({ libraries: [makeLibrary(1)] });
    const api = mockApi({
      'songs.page': () => makeSongPage([]),
      'artists.list': () => [],
      'libraries.list': () => answer(),
    });
    renderInApp(<DashboardHomePage />, { user: admin, route: '/dashboard' });
    await flush();
    expect(api.requests('libraries.list')).toHaveLength(1);
    expect(step()).toBeNull();

    answer = () => errorResponse(500, 'internal', 'Something went wrong on our side. Please try again.');
    const view = renderInApp(<DashboardHomePage />, { user: admin, route: '/dashboard' });
    await advance(5_000);
    expect(step()).toBeNull();
    expect(view.alertMessages()).toEqual([]);
  });
});
