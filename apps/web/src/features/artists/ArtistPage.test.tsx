import { fireEvent, screen, within } from '@testing-library/react';
import { UNKNOWN_ALBUM, type AlbumSummary } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ArtistAddressPage } from '../../app/ArtistAddressPage.js';
import { errorResponse, makeAlbumSummary, makeArtist, makeSong, makeSongPage } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { advance } from '../../test/timers.js';
import { ArtistPage } from './ArtistPage.js';

describe('/dashboard/artist', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The artists page, then Nina Simone's (artist 3) chosen from it. */
  async function openNina() {
    renderInApp(<ArtistPage />, {
      route: '/dashboard/artist',
      routes: { '/dashboard/artist/:id': <ArtistAddressPage /> },
    });
    await advance(0);
    fireEvent.click(screen.getByRole('link', { name: 'Nina Simone' }));
    await advance(0);
  }

  /** An albums.list answer of these albums. */
  const albumList = (items: AlbumSummary[]) => ({ items, nextCursor: null, total: items.length });

  it('lists the artists; choosing one opens their page at its own address', async () => {
    const api = mockApi({
      'artists.list': () => [makeArtist(3, { name: 'Nina Simone', songs: [7] }), makeArtist(4)],
      'artists.get': () => makeArtist(3, { name: 'Nina Simone', songs: [7] }),
      'songs.page': () => makeSongPage([makeSong(7, { name: 'Feeling Good' })]),
    });
    renderInApp(<ArtistPage />, {
      route: '/dashboard/artist',
      routes: { '/dashboard/artist/:id': <ArtistAddressPage /> },
    });
    await advance(0);
    expect(screen.getByRole('list', { name: 'Artists' }).children).toHaveLength(2);
    fireEvent.click(screen.getByRole('link', { name: 'Nina Simone' }));
    await advance(0);
    expect(screen.getByTestId('location').textContent).toBe('/dashboard/artist/3');
    expect(screen.getByRole('heading', { level: 1, name: 'Nina Simone' })).toBeInTheDocument();
    expect(new URL(api.requests('songs.page')[0]?.url ?? '').searchParams.get('artistId')).toBe('3');
    expect(screen.getByRole('listitem', { name: 'Feeling Good' })).toBeInTheDocument();
  });

  it('sorts the artists by the listener’s stars, and opens sorted so from an address that says it', async () => {
    const nina = makeArtist(3, { name: 'Nina Simone' });
    const otis = makeArtist(4, { name: 'Otis Redding' });
    const api = mockApi({
      'artists.list': (request) =>
        new URL(request.url).searchParams.get('sort') === 'rating' ? [otis, nina] : [nina, otis],
    });
    const names = () => {
      const links = within(screen.getByRole('list', { name: 'Artists' })).getAllByRole('link');
      return ['Nina Simone', 'Otis Redding'].sort(
        (a, b) =>
          links.findIndex((link) => link.textContent.startsWith(a)) -
          links.findIndex((link) => link.textContent.startsWith(b)),
      );
    };
    const first = renderInApp(<ArtistPage />, { route: '/dashboard/artist' });
    await advance(0);
    expect(names()).toEqual(['Nina Simone', 'Otis Redding']);
    const select = screen.getByRole('combobox', { name: 'Sort artists' });
    expect(select).toHaveValue('name');
    fireEvent.change(select, { target: { value: 'rating' } });
    await advance(0);
    expect(new URL(api.requests('artists.list').at(-1)?.url ?? '').searchParams.get('sort')).toBe('rating');
    expect(names()).toEqual(['Otis Redding', 'Nina Simone']);
    first.unmount();

    renderInApp(<ArtistPage />, { route: '/dashboard/artist?sort=rating' });
    await advance(0);
    expect(screen.getByRole('combobox', { name: 'Sort artists' })).toHaveValue('rating');
    expect(names()).toEqual(['Otis Redding', 'Nina Simone']);
  });

  it('sorts an artist’s albums by name, newest first or the listener’s stars', async () => {
    const [pastel, spell] = [
      makeAlbumSummary(5, { name: 'Pastel Blues' }),
      makeAlbumSummary(4, { name: 'I Put a Spell on You' }),
    ];
    const api = mockApi({
      'artists.list': () => [makeArtist(3, { name: 'Nina Simone', songs: [7] })],
      'artists.get': () => makeArtist(3, { name: 'Nina Simone', songs: [7] }),
      'songs.page': () => makeSongPage([makeSong(7, { name: 'Feeling Good' })]),
      'albums.list': (request) =>
        albumList(new URL(request.url).searchParams.get('sort') === 'rating' ? [pastel, spell] : [spell, pastel]),
    });
    await openNina();
    const titles = () =>
      within(screen.getByRole('list', { name: 'Albums by Nina Simone' }))
        .getAllByRole('link')
        .map((link) => link.getAttribute('aria-label') ?? link.textContent);
    expect(titles()[0]).toContain('I Put a Spell on You');
    fireEvent.change(screen.getByRole('combobox', { name: 'Sort albums' }), { target: { value: 'rating' } });
    await advance(0);
    const query = new URL(api.requests('albums.list').at(-1)?.url ?? '').searchParams;
    expect([query.get('sort'), query.get('artistId')]).toEqual(['rating', '3']);
    expect(titles()[0]).toContain('Pastel Blues');
    fireEvent.change(screen.getByRole('combobox', { name: 'Sort albums' }), { target: { value: 'recent' } });
    await advance(0);
    expect(new URL(api.requests('albums.list').at(-1)?.url ?? '').searchParams.get('sort')).toBe('recent');
  });

  it('shows the artist’s albums before their songs', async () => {
    const api = mockApi({
      'artists.list': () => [makeArtist(3, { name: 'Nina Simone', songs: [7] })],
      'artists.get': () => makeArtist(3, { name: 'Nina Simone', songs: [7] }),
      'songs.page': () => makeSongPage([makeSong(7, { name: 'Feeling Good' })]),
      'albums.list': () => albumList([makeAlbumSummary(4, { name: 'I Put a Spell on You' })]),
    });
    await openNina();
    expect(new URL(api.requests('albums.list')[0]?.url ?? '').searchParams.get('artistId')).toBe('3');
    const albums = screen.getByRole('list', { name: 'Albums by Nina Simone' });
    expect(within(albums).getByRole('link', { name: 'I Put a Spell on You' }).textContent).toContain('1965');
    const headings = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(headings).toEqual(['Albums', 'Songs']);
    // The albums come first in the page, then the songs.
    const songs = screen.getByRole('list', { name: 'Songs by Nina Simone' });
    expect(albums.compareDocumentPosition(songs) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('shows the artist’s songs without an album in their “Unknown album”, last', async () => {
    mockApi({
      'artists.list': () => [makeArtist(3, { name: 'Nina Simone', songs: [7, 8] })],
      'artists.get': () => makeArtist(3, { name: 'Nina Simone', songs: [7, 8] }),
      'songs.page': () => makeSongPage([makeSong(7, { name: 'Feeling Good' })]),
      // By name, as the server answers: "Unknown album" before "Wild Is the Wind".
      'albums.list': () =>
        albumList([
          makeAlbumSummary(9, { name: UNKNOWN_ALBUM, year: null, placeholder: true }),
          makeAlbumSummary(4, { name: 'Wild Is the Wind' }),
        ]),
    });
    await openNina();
    const links = within(screen.getByRole('list', { name: 'Albums by Nina Simone' })).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('aria-label'))).toEqual(['Wild Is the Wind', UNKNOWN_ALBUM]);
    expect(links[1]?.textContent).toContain('Songs without an album');
    expect(links[1]?.getAttribute('href')).toBe('/dashboard/album?id=9');
  });

  it('shows the red alert "Error fetching artists" when they cannot be loaded', async () => {
    mockApi({ 'artists.list': () => errorResponse(500, 'internal-error', 'down') });
    const view = renderInApp(<ArtistPage />, { route: '/dashboard/artist' });
    await advance(1500);
    expect(view.alerts.getSnapshot()).toMatchObject([{ kind: 'error', message: 'Error fetching artists' }]);
  });
});
