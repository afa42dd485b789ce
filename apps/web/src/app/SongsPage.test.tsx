import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SEARCH_DEBOUNCE_MS } from '../lib/useDebouncedValue.js';
import {
  errorResponse,
  makeArtist,
  makePlaylist,
  makeSong,
  makeSongPage,
  makeUser,
  pagedSongs,
  textResponse,
} from '../test/fixtures.js';
import { mockApi } from '../test/mock-api.js';
import { renderInApp } from '../test/render.js';
import { advance, flush } from '../test/timers.js';
import { useSongDataPreload } from '../features/songs/useSongs.js';
import { SongsPage } from './SongsPage.js';

const nina = makeArtist(3, { name: 'Nina Simone', image: '/media/images/nina.webp' });
const admin = makeUser({ role: 'ADMIN' });

/** The songs page inside what the dashboard shell gives an admin (with SPEC §6's load 2 s after the user check). */
function AdminSongsPage() {
  useSongDataPreload(admin);
  return <SongsPage />;
}

describe('/dashboard/songs', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('without artist details shows the catalogue’s first page, shuffled by the server, with the server’s count', async () => {
    const api = mockApi({
      'songs.page': (request) =>
        new URL(request.url).searchParams.has('cursor')
          ? makeSongPage([makeSong(3, { name: 'Giant Steps' })], { total: 100_000, seed: 5 })
          : makeSongPage([makeSong(1, { name: 'So What' }), makeSong(2, { name: 'Naima' })], {
              nextCursor: 'next',
              total: 100_000,
              seed: 5,
            }),
    });
    renderInApp(<SongsPage />, { route: '/dashboard/songs' });
    await flush();
    expect(screen.getByRole('heading', { level: 1, name: 'Songs' })).toBeInTheDocument();
    expect(screen.getByText('100,000 songs')).toBeInTheDocument();
    // The end of the first page is in view, so the second page loads at once (its answer is rendered on the next
    // tick: a 0 ms timer set during a fake tick is due 1 ms later).
    await advance(1);
    expect(within(screen.getByRole('list', { name: 'Songs' })).getAllByRole('listitem')).toHaveLength(3);
    expect(api.requests('songs.page')).toHaveLength(2);
    const [first, second] = api.requests('songs.page').map((request) => new URL(request.url).searchParams);
    expect(first?.get('order')).toBe('shuffle');
    expect(first?.has('cursor')).toBe(false);
    expect(second?.get('cursor')).toBe('next');
    expect(second?.get('seed')).toBe(first?.get('seed'));
    expect(api.calls().some((call) => call.startsWith('GET /api/songs?') || call === 'GET /api/songs')).toBe(false);
  });

  it('Play starts the catalogue from its first song through the source; Shuffle all asks for a new seed', async () => {
    const catalogue = Array.from({ length: 80 }, (_, index) => makeSong(index + 1));
    const api = mockApi({ 'songs.page': pagedSongs(catalogue, 50) });
    const view = renderInApp(<SongsPage />, { route: '/dashboard/songs' });
    await flush();
    const playFrom = vi.spyOn(view.player.controls, 'playFrom');
    fireEvent.click(screen.getByLabelText('Play songs'));
    expect(playFrom).toHaveBeenLastCalledWith({
      source: expect.objectContaining({ kind: 'catalogue', order: 'shuffle' }) as unknown,
      songs: catalogue.slice(0, 50),
      nextCursor: 'at50',
      index: 0,
    });
    const listSeed = new URL(api.requests('songs.page')[0]?.url ?? '').searchParams.get('seed');

    fireEvent.click(screen.getByLabelText('Shuffle all songs'));
    await flush();
    const shuffled = api.requests('songs.page').at(-1);
    const query = new URL(shuffled?.url ?? '').searchParams;
    expect(query.has('cursor')).toBe(false);
    expect(query.get('order')).toBe('shuffle');
    expect(query.get('seed')).not.toBe(listSeed);
    expect(playFrom).toHaveBeenLastCalledWith({
      source: { kind: 'catalogue', order: 'shuffle', seed: Number(query.get('seed')), artistId: undefined },
      songs: catalogue.slice(0, 50),
      nextCursor: 'at50',
      index: 0,
    });
    expect(view.player.store.getState().current.id).toBe(1);
  });

  it('with artist details shows the artist header and only that artist’s songs', async () => {
    const api = mockApi({
      'songs.page': () =>
        makeSongPage([makeSong(7, { name: 'Feeling Good', artistName: 'Nina Simone' })], { total: 1, seed: 5 }),
      'albums.list': () => ({ items: [], nextCursor: null, total: 0 }),
      'artists.credits': () => ({ items: [], nextCursor: null, total: 0 }),
      'artists.get': () => nina,
    });
    renderInApp(<SongsPage />, { route: { pathname: '/dashboard/songs', state: { artist: nina } } });
    await flush();
    expect(screen.getByRole('heading', { level: 1, name: 'Nina Simone' })).toBeInTheDocument();
    expect(document.querySelector('img[src="/media/images/nina.webp?w=300"]')).not.toBeNull();
    // One page of songs, the artist's albums (issue 12; none here, so no albums section) and their other credits
    // (issue 25; none here, so no such section), and the artist itself for the caller's stars (issue 28).
    expect(api.calls()).toHaveLength(4);
    expect(api.requests('artists.get')).toHaveLength(1);
    expect(screen.queryByRole('heading', { level: 2, name: 'Also credited on' })).toBeNull();
    expect(api.requests('songs.page')).toHaveLength(1);
    expect(new URL(api.requests('albums.list')[0]?.url ?? '').searchParams.get('artistId')).toBe('3');
    expect(screen.queryByRole('heading', { level: 2, name: 'Albums' })).toBeNull();
    const query = new URL(api.requests('songs.page')[0]?.url ?? '').searchParams;
    expect(query.get('artistId')).toBe('3');
    expect(query.get('order')).toBe('shuffle');
    expect(screen.getByText('1 song')).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Songs by Nina Simone' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((row) => row.getAttribute('aria-label')),
    ).toEqual(['Feeling Good']);
  });

  it('searches songs, artists and playlists as you type, once the typing pauses', async () => {
    const api = mockApi({
      'songs.page': () => makeSongPage([makeSong(1, { name: 'So What' })]),
      'search.query': () => ({
        songs: [makeSong(5, { name: 'Night Ferry' })],
        artists: [makeArtist(4, { name: 'Nightjar' })],
        playlists: [makePlaylist(6, { name: 'Night drive' })],
        nextCursors: { songs: null, artists: null, playlists: null },
        albums: [],
      }),
    });
    renderInApp(<SongsPage />, { route: '/dashboard/songs' });
    await flush();
    const box = screen.getByLabelText('Search songs, artists and playlists');
    fireEvent.change(box, { target: { value: 'n' } });
    fireEvent.change(box, { target: { value: 'nig' } });
    await advance(100);
    expect(api.calls().filter((call) => call.startsWith('GET /api/search'))).toEqual([]);
    await advance(SEARCH_DEBOUNCE_MS);
    await flush();
    expect(api.calls().filter((call) => call.startsWith('GET /api/search'))).toEqual([
      'GET /api/search?q=nig&limit=20',
    ]);
    const songNames = within(screen.getByRole('list', { name: 'Songs' }))
      .getAllByRole('listitem')
      .map((row) => row.getAttribute('aria-label'));
    expect(songNames).toEqual(['Night Ferry']);
    expect(
      within(screen.getByRole('list', { name: 'Artists' })).getByRole('link', { name: 'Nightjar' }),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('list', { name: 'Playlists' }))
        .getByRole('link', { name: 'Night drive' })
        .getAttribute('href'),
    ).toBe('/dashboard/playlist?id=6');
  });

  it('the Liked chip shows the liked songs a page at a time, filtered by the search box', async () => {
    const api = mockApi({
      'songs.page': () => makeSongPage([]),
      'likes.page': () =>
        makeSongPage([
          makeSong(2, { name: 'Naima', likeSong: true }),
          makeSong(3, { name: 'Blue in Green', likeSong: true }),
        ]),
    });
    renderInApp(<SongsPage />, { route: '/dashboard/songs' });
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Liked' }));
    await flush();
    expect(screen.getByRole('heading', { level: 1, name: 'Liked songs' })).toBeInTheDocument();
    expect(api.calls()).toContain('GET /api/songs/liked/page?limit=50');
    expect(screen.getByText('2 songs')).toBeInTheDocument();
    const names = () => screen.getAllByRole('listitem').map((row) => row.getAttribute('aria-label'));
    expect(names()).toEqual(['Naima', 'Blue in Green']);
    fireEvent.change(screen.getByLabelText('Search songs in Liked'), { target: { value: 'blue' } });
    await flush();
    expect(names()).toEqual(['Blue in Green']);
  });

  it('after saving a song from an artist’s list, goes to /dashboard/artist', async () => {
    mockApi({
      'songs.page': () => makeSongPage([]),
      'artists.list': () => [nina],
      'songs.create': () => textResponse('Song added successfully', 201),
    });
    const view = renderInApp(<SongsPage />, {
      user: admin,
      route: { pathname: '/dashboard/songs', state: { artist: nina } },
      routes: { '/dashboard/artist': <p>Artist page</p> },
    });
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Add song' }));
    await flush();
    const dialog = screen.getByRole('dialog', { name: 'Add Song' });
    expect(within(dialog).getByLabelText<HTMLSelectElement>('Artist').value).toBe('3');
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Sinnerman' } });
    fireEvent.change(within(dialog).getByLabelText('Genre'), { target: { value: 'Pop' } });
    fireEvent.change(within(dialog).getByLabelText('Song file'), {
      target: { files: [new File(['x'], 'a.mp3', { type: 'audio/mpeg' })] },
    });
    fireEvent.change(within(dialog).getByLabelText('Image file'), {
      target: { files: [new File(['x'], 'a.png', { type: 'image/png' })] },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await flush();
    await flush();
    expect(view.alertMessages()).toEqual(['Song added successfully']);
    expect(screen.getByTestId('location').textContent).toBe('/dashboard/artist');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('deletes only after confirmation and shows the server text', async () => {
    let deleted = false;
    const api = mockApi({
      // After the delete the server answers without the song, a second later.
      'songs.page': () =>
        deleted
          ? new Promise((resolve) => setTimeout(() => resolve(makeSongPage([makeSong(2, { name: 'Naima' })])), 1000))
          : makeSongPage([makeSong(1, { name: 'So What' }), makeSong(2, { name: 'Naima' })]),
      'artists.list': () => [],
      'songs.remove': () => {
        deleted = true;
        return textResponse('Song deleted successfully');
      },
    });
    const view = renderInApp(<AdminSongsPage />, { user: admin, route: '/dashboard/songs' });
    await advance(2000);
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'More options for So What' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toContain('So What');
    expect(api.calls()).not.toContain('DELETE /api/songs/1');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await flush();
    expect(api.calls()).toContain('DELETE /api/songs/1');
    expect(view.alertMessages()).toEqual(['Song deleted successfully']);
    // Gone from the list and its count at once, while the list is refetched.
    expect(api.requests('songs.page')).toHaveLength(2);
    expect(screen.queryByRole('listitem', { name: 'So What' })).toBeNull();
    expect(screen.getByText('1 song')).toBeInTheDocument();
    await advance(1000);
    expect(screen.getAllByRole('listitem').map((row) => row.getAttribute('aria-label'))).toEqual(['Naima']);
  });

  it('reports "Song not deleted" when the delete fails', async () => {
    mockApi({
      'songs.page': () => makeSongPage([makeSong(1, { name: 'So What' })]),
      'artists.list': () => [],
      'songs.remove': () => errorResponse(500, 'internal-error', 'boom'),
    });
    const view = renderInApp(<AdminSongsPage />, { user: admin, route: '/dashboard/songs' });
    await advance(2000);
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'More options for So What' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await flush();
    expect(view.alertMessages()).toEqual(['Song not deleted']);
  });
});
