import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSongDataPreload } from '../features/songs/useSongs.js';
import { SEARCH_DEBOUNCE_MS } from '../lib/useDebouncedValue.js';
import { useCurrentUser } from '../shell/auth/useAuth.js';
import { errorResponse, makeArtist, makePlaylist, makeSong, makeUser, textResponse } from '../test/fixtures.js';
import { mockApi } from '../test/mock-api.js';
import { renderInApp } from '../test/render.js';
import { advance, flush } from '../test/timers.js';
import { SongsPage } from './SongsPage.js';

/** Admin lists read the preloaded song data, which the dashboard shell starts; here the page starts it. */
function AdminSongsPage() {
  useSongDataPreload(useCurrentUser());
  return <SongsPage />;
}
const nina = makeArtist(3, { name: 'Nina Simone', image: '/media/images/nina.webp' });
const admin = makeUser({ role: 'ADMIN' });

describe('/dashboard/songs', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('without artist details shows the general list (GET /api/songs for regular users)', async () => {
    const api = mockApi({
      'songs.list': () => [makeSong(1, { name: 'So What' }), makeSong(2, { name: 'Naima' })],
    });
    renderInApp(<SongsPage />, { route: '/dashboard/songs' });
    await flush();
    expect(screen.getByRole('heading', { level: 1, name: 'Songs' })).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Songs' })).getAllByRole('listitem')).toHaveLength(2);
    expect(api.calls()).toEqual(['GET /api/songs']);
  });

  it('with artist details shows the artist header and only that artist’s songs', async () => {
    const api = mockApi({
      'songs.list': () => [makeSong(7, { name: 'Feeling Good', artistName: 'Nina Simone' })],
    });
    renderInApp(<SongsPage />, { route: { pathname: '/dashboard/songs', state: { artist: nina } } });
    await flush();
    expect(screen.getByRole('heading', { level: 1, name: 'Nina Simone' })).toBeInTheDocument();
    expect(document.querySelector('img[src="/media/images/nina.webp?w=300"]')).not.toBeNull();
    expect(api.calls()).toEqual(['GET /api/songs?artistId=3']);
    const list = screen.getByRole('list', { name: 'Songs by Nina Simone' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((row) => row.getAttribute('aria-label')),
    ).toEqual(['Feeling Good']);
  });

  it('searches songs, artists and playlists as you type, once the typing pauses', async () => {
    const api = mockApi({
      'songs.list': () => [makeSong(1, { name: 'So What' })],
      'search.query': () => ({
        songs: [makeSong(5, { name: 'Night Ferry' })],
        artists: [makeArtist(4, { name: 'Nightjar' })],
        playlists: [makePlaylist(6, { name: 'Night drive' })],
        nextCursors: { songs: null, artists: null, playlists: null },
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

  it('the Liked chip shows GET /api/songs/liked, filtered by the search box', async () => {
    const api = mockApi({
      'songs.list': () => [],
      'likes.list': () => [
        makeSong(2, { name: 'Naima', likeSong: true }),
        makeSong(3, { name: 'Blue in Green', likeSong: true }),
      ],
    });
    renderInApp(<SongsPage />, { route: '/dashboard/songs' });
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Liked' }));
    await flush();
    expect(screen.getByRole('heading', { level: 1, name: 'Liked songs' })).toBeInTheDocument();
    expect(api.calls()).toContain('GET /api/songs/liked?limit=500');
    const names = () => screen.getAllByRole('listitem').map((row) => row.getAttribute('aria-label'));
    expect(names()).toEqual(['Naima', 'Blue in Green']);
    fireEvent.change(screen.getByLabelText('Search songs in Liked'), { target: { value: 'blue' } });
    await flush();
    expect(names()).toEqual(['Blue in Green']);
  });

  it('after saving a song from an artist’s list, goes to /dashboard/artist', async () => {
    mockApi({
      'songs.list': () => [],
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
    const api = mockApi({
      'songs.data': () => ({ songs: [makeSong(1, { name: 'So What' })], artists: [] }),
      'songs.remove': () => textResponse('Song deleted successfully'),
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
  });

  it('reports "Song not deleted" when the delete fails', async () => {
    mockApi({
      'songs.data': () => ({ songs: [makeSong(1, { name: 'So What' })], artists: [] }),
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
