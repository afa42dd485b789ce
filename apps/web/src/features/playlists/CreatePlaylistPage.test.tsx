import { fireEvent, screen, within } from '@testing-library/react';
import { endpoints, type Song, type SongPage } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SEARCH_DEBOUNCE_MS } from '../../lib/useDebouncedValue.js';
import { jsonResponse, makePlaylist, makeSong, makeSongPage } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { advance, flush } from '../../test/timers.js';
import { CreatePlaylistPage } from './CreatePlaylistPage.js';

const soWhat = makeSong(1, { name: 'So What' });
const naima = makeSong(2, { name: 'Naima' });
const giantSteps = makeSong(3, { name: 'Giant Steps' });
const catalogue = [soWhat, naima, giantSteps];

/** One `songs.page` answer holding every song given. */
function page(items: Song[]): SongPage {
  return { items, nextCursor: null, total: items.length, seed: null };
}

/** jsdom lays nothing out: the picker's scroll box gets the height its CSS gives it. */
function layOutPicker(): void {
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(function (this: Element) {
    return this.classList.contains('picker__found') ? 432 : 0;
  });
}

describe('/dashboard/create-playlist', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    layOutPicker();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('creates a playlist with name, type, visibility and songs picked with search, in the chosen order', async () => {
    const api = mockApi({
      'songs.page': (request) => page(new URL(request.url).searchParams.get('q') === 'nai' ? [naima] : catalogue),
      'playlists.create': () => jsonResponse(makePlaylist(12, { name: 'Late night' }), 201),
    });
    renderInApp(<CreatePlaylistPage />, {
      route: '/dashboard/create-playlist',
      routes: { '/dashboard/playlist': <p>Playlist page</p> },
    });
    await flush();
    expect(api.calls()).toEqual(['GET /api/songs/page?limit=50&order=newest']);
    const form = screen.getByRole('form', { name: 'Create playlist' });
    fireEvent.change(within(form).getByLabelText(/^Name/), { target: { value: 'Late night' } });
    fireEvent.change(within(form).getByLabelText(/^Type/), { target: { value: 'Chill' } });
    fireEvent.click(within(form).getByRole('checkbox', { name: /^Public/ }));

    fireEvent.click(screen.getByRole('button', { name: 'Add Giant Steps' }));
    fireEvent.change(screen.getByLabelText('Find songs'), { target: { value: 'nai' } });
    await advance(SEARCH_DEBOUNCE_MS);
    await flush();
    expect(api.calls()).toContain('GET /api/songs/page?limit=50&q=nai');
    fireEvent.click(
      within(screen.getByRole('list', { name: 'Search results' })).getByRole('button', { name: 'Add Naima' }),
    );
    const picked = screen.getByRole('list', { name: 'Songs in this playlist' });
    fireEvent.click(within(picked).getByRole('button', { name: 'Move Naima up' }));
    expect(
      within(picked)
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('aria-label')),
    ).toEqual(['Naima', 'Giant Steps']);

    fireEvent.click(within(form).getByRole('button', { name: 'Create playlist' }));
    await flush();
    const body = await api.requests('playlists.create')[0]?.formData();
    expect([...(body?.entries() ?? [])]).toEqual([
      ['name', 'Late night'],
      ['type', 'Chill'],
      ['isPublic', 'true'],
      ['songs', '[2,3]'],
    ]);
    expect(screen.getByTestId('location').textContent).toBe('/dashboard/playlist');
  });

  it('the song picker lists the newest songs a page at a time, asking for the next page as its end scrolls near', async () => {
    const songs = Array.from({ length: 120 }, (_, i) => makeSong(120 - i, { name: `Track ${120 - i}` }));
    const cursors: Record<string, number> = { c1: 50, c2: 100 };
    const api = mockApi({
      'songs.page': (request) => {
        const start = cursors[new URL(request.url).searchParams.get('cursor') ?? ''] ?? 0;
        const end = Math.min(start + 50, songs.length);
        const nextCursor = end === 50 ? 'c1' : end === 100 ? 'c2' : null;
        return { items: songs.slice(start, end), nextCursor, total: songs.length, seed: null };
      },
    });
    renderInApp(<CreatePlaylistPage />, { route: '/dashboard/create-playlist' });
    await flush();
    const results = screen.getByRole('list', { name: 'Search results' });
    const shown = () => within(results).getAllByRole('listitem');
    // Virtualised: a screenful and a margin of rows, not the page of 50.
    expect(shown().length).toBeLessThan(20);
    expect(shown()[0]?.getAttribute('aria-setsize')).toBe('120');
    expect(api.calls()).toEqual(['GET /api/songs/page?limit=50&order=newest']);

    const scrollTo = async (top: number) => {
      const box = results.parentElement;
      if (!box) throw new Error('no scroll box');
      Object.defineProperty(box, 'scrollTop', { configurable: true, writable: true, value: top });
      fireEvent.scroll(box);
      await flush();
    };
    await scrollTo(20 * 54);
    expect(api.calls()).toHaveLength(1);
    await scrollTo(50 * 54 - 432);
    expect(api.calls().at(-1)).toBe('GET /api/songs/page?limit=50&cursor=c1&order=newest');
    expect(within(results).getByRole('listitem', { name: 'Track 71' })).toBeInTheDocument();
    await scrollTo(100 * 54 - 432);
    expect(api.calls().at(-1)).toBe('GET /api/songs/page?limit=50&cursor=c2&order=newest');
    await scrollTo(120 * 54 - 432);
    fireEvent.click(within(results).getByRole('button', { name: 'Add Track 1' }));
    expect(api.calls()).toHaveLength(3);
    expect(
      within(screen.getByRole('list', { name: 'Songs in this playlist' }))
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('aria-label')),
    ).toEqual(['Track 1']);
  });

  it('requires a name and sends nothing without one', async () => {
    const api = mockApi({ 'songs.page': () => page(catalogue) });
    renderInApp(<CreatePlaylistPage />, { route: '/dashboard/create-playlist' });
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Create playlist' }));
    await flush();
    expect(screen.getByText('Name is required')).toBeInTheDocument();
    expect(api.requests('playlists.create')).toHaveLength(0);
    // The field in error is focused and brought into view with its message; typing a name answers it.
    const name = screen.getByRole('textbox', { name: 'Name' });
    expect(document.activeElement).toBe(name);
    expect(document.body.dataset.scrolledTo).toContain('field--invalid');
    fireEvent.change(name, { target: { value: 'Road trip' } });
    expect(screen.queryByText('Name is required')).toBeNull();
  });

  it('edits an existing playlist: prefilled, and saved with PUT /api/playlists/updatePlaylist/{id}', async () => {
    const api = mockApi({
      'playlists.get': () => makePlaylist(5, { name: 'Road trip', type: 'Driving', isPublic: true, songIds: [1, 3] }),
      'songs.playlistPage': () => makeSongPage([soWhat, giantSteps]),
      'songs.page': () => page(catalogue),
      'playlists.update': () => makePlaylist(5, { name: 'Road trip 2' }),
    });
    const view = renderInApp(<CreatePlaylistPage />, {
      route: '/dashboard/create-playlist?edit=5',
      routes: { '/dashboard/playlist': <p>Playlist page</p> },
    });
    await flush();
    await flush();
    expect(screen.getByRole('heading', { level: 1, name: 'Edit playlist' })).toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'Edit playlist' });
    expect(within(form).getByLabelText<HTMLInputElement>(/^Name/).value).toBe('Road trip');
    expect(within(form).getByRole<HTMLInputElement>('checkbox', { name: /^Public/ }).checked).toBe(true);
    const picked = screen.getByRole('list', { name: 'Songs in this playlist' });
    fireEvent.click(within(picked).getByRole('button', { name: 'Remove So What' }));
    fireEvent.change(within(form).getByLabelText(/^Name/), { target: { value: 'Road trip 2' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    await flush();
    const [request] = api.requests('playlists.update');
    expect(request?.url).toBe('http://localhost/api/playlists/updatePlaylist/5');
    const body = await request?.formData();
    expect([...(body?.entries() ?? [])]).toEqual([
      ['name', 'Road trip 2'],
      ['type', 'Driving'],
      ['isPublic', 'true'],
      ['songs', '[3]'],
    ]);
    expect(view.alertMessages()).toEqual(['Playlist “Road trip 2” saved']);
  });

  it.each([
    ['removes the cover with removeImage=true', null, ['removeImage', 'true']],
    ['replaces the cover with the chosen image', new File(['png'], 'new.png', { type: 'image/png' }), null],
  ])('%s, after the other fields', async (_case, image, last) => {
    const api = mockApi({
      'playlists.get': () => makePlaylist(5, { name: 'Road trip', imgLink: '/media/images/c.webp', songIds: [1] }),
      'songs.playlistPage': () => makeSongPage([soWhat]),
      'songs.page': () => page(catalogue),
      'playlists.update': () => makePlaylist(5),
    });
    renderInApp(<CreatePlaylistPage />, { route: '/dashboard/create-playlist?edit=5' });
    await flush();
    await flush();
    const form = screen.getByRole('form', { name: 'Edit playlist' });
    if (image) fireEvent.change(within(form).getByLabelText(/^Cover image/), { target: { files: [image] } });
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Remove the current cover' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    await flush();
    const body = await api.requests('playlists.update')[0]?.formData();
    const entries = [...(body?.entries() ?? [])];
    expect(entries.slice(0, 4).map(([name]) => name)).toEqual(['name', 'type', 'isPublic', 'songs']);
    expect(entries).toHaveLength(5);
    const [name, value] = entries[4] ?? [];
    if (last) expect([name, value]).toEqual(last);
    else {
      expect(name).toBe(Object.keys(endpoints.playlists.update.form.files)[0]);
      // (The test environment's Request drops file names; the bytes and type arrive.)
      expect(value).toMatchObject({ size: 3, type: 'image/png' });
    }
  });
});
