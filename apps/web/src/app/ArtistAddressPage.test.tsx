import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RadioWaitReasons } from '../features/radio/StartRadioButton.js';
import { UiMessages } from '../lib/ui-messages.js';
import { errorResponse, makeArtist, makeSong, makeSongPage } from '../test/fixtures.js';
import { mockApi, type MockRoutes } from '../test/mock-api.js';
import { radioAnswering, sentRadioSeeds, startRadioButton } from '../test/radio.js';
import { renderInApp } from '../test/render.js';
import { advance, flush } from '../test/timers.js';
import { ArtistPage } from '../features/artists/ArtistPage.js';
import { ArtistAddressPage, artistIdOf } from './ArtistAddressPage.js';

const nina = makeArtist(3, { name: 'Nina Simone', image: '/media/images/nina.webp', songs: [7] });
const own = makeSong(7, { name: 'Feeling Good', artistId: 3, artistName: 'Nina Simone' });
const composed = makeSong(20, { name: 'Composed for Others', artistId: 8, artistName: 'Other Singer' });

function artistApi(routes: MockRoutes = {}) {
  return mockApi({
    'artists.get': (request) => (request.url.endsWith('/artists/3') ? nina : errorResponse(404, 'not-found', 'No')),
    'songs.page': () => makeSongPage([own], { total: 1 }),
    'albums.list': () => ({
      items: [
        {
          id: 4,
          name: 'Wild Is the Wind',
          artistId: 3,
          artistName: 'Nina Simone',
          year: 1966,
          imgLink: '',
          songCount: 1,
          durationMs: 1000,
          placeholder: false,
        },
      ],
      nextCursor: null,
      total: 1,
    }),
    'artists.credits': () => ({
      items: [{ song: composed, roles: [{ role: 'composer', subRole: null }] }],
      nextCursor: null,
      total: 1,
    }),
    ...routes,
  });
}

function renderAt(route: string | { pathname: string; state?: unknown }) {
  return renderInApp(<ArtistAddressPage />, {
    route,
    path: '/dashboard/artist/:id',
    routes: { '/dashboard/artist': <h1>All artists</h1> },
  });
}

describe('/dashboard/artist/:id (issue 26)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    document.title = 'Tonearm';
  });

  it('rates the artist from the header (issue 28): shown at once, put back with an alert when refused', async () => {
    let refuse = false;
    const api = artistApi({
      'artists.get': () => ({ ...nina, rating: 2 }),
      'ratings.rateArtist': () =>
        refuse ? errorResponse(500, 'internal-error', 'down') : new Response(null, { status: 204 }),
    });
    const view = renderAt('/dashboard/artist/3');
    await advance(1000);
    const group = screen.getByRole('group', { name: 'Rating of Nina Simone' });
    expect(within(group).getByText('Rated 2 stars of 5')).toBeInTheDocument();
    fireEvent.click(within(group).getByRole('button', { name: 'Rate 4 stars' }));
    await flush();
    expect(within(group).getByText('Rated 4 stars of 5')).toBeInTheDocument();
    const sent = api.requests('ratings.rateArtist')[0];
    expect(new URL(sent?.url ?? '').pathname).toBe('/api/artists/3/rating');
    expect(await sent?.json()).toEqual({ rating: 4 });
    refuse = true;
    fireEvent.click(within(group).getByRole('button', { name: 'Rate 1 star' }));
    await flush();
    await flush();
    expect(
      within(screen.getByRole('group', { name: 'Rating of Nina Simone' })).getByText('Rated 4 stars of 5'),
    ).toBeInTheDocument();
    expect(view.alertMessages()).toEqual([UiMessages.ratingFailed]);
  });

  it('reads the artists grid again once a rating is stored: sorted by rating, its order changes', async () => {
    const api = artistApi({
      'artists.list': () => [nina],
      'ratings.rateArtist': () => new Response(null, { status: 204 }),
    });
    // The grid open beside the artist's page (as a cached list would be when the listener goes back to it).
    renderInApp(
      <>
        <ArtistAddressPage />
        <ArtistPage />
      </>,
      { route: '/dashboard/artist/3?sort=rating', path: '/dashboard/artist/:id' },
    );
    await advance(1000);
    expect(api.requests('artists.list')).toHaveLength(1);
    const group = screen.getByRole('group', { name: 'Rating of Nina Simone' });
    fireEvent.click(within(group).getByRole('button', { name: 'Rate 4 stars' }));
    await advance(0);
    await flush();
    const again = api.requests('artists.list');
    expect(again).toHaveLength(2);
    expect(new URL(again[1]?.url ?? '').searchParams.get('sort')).toBe('rating');
  });

  it('starts the artist’s radio from the header, seeded with their loaded songs (issue 28)', async () => {
    const like = makeSong(30, { name: 'Like Feeling Good' });
    const api = artistApi({ 'radio.next': radioAnswering([like]) });
    const view = renderAt('/dashboard/artist/3');
    await advance(1000);
    fireEvent.click(startRadioButton());
    await flush();
    expect(await sentRadioSeeds(api)).toEqual([7]);
    expect(view.player.store.getState().current).toEqual(like);
    expect(view.player.store.getState().feed?.source).toEqual({ kind: 'radio', seedIds: [7] });
  });

  it('asks the server for the artist’s songs by the caller’s rating when Sort by says so (issue 28)', async () => {
    const api = artistApi();
    renderAt('/dashboard/artist/3');
    await advance(1000);
    const select = screen.getByRole('combobox', { name: 'Sort by' });
    fireEvent.change(select, { target: { value: 'rating:desc' } });
    await flush();
    const asked = new URL(api.requests('songs.page').at(-1)?.url ?? '').searchParams;
    expect(Object.fromEntries(asked)).toMatchObject({ artistId: '3', order: 'rating', direction: 'desc' });
    expect(within(select).getByRole('option', { name: 'Rating (lowest rated first)' })).toBeTruthy();
  });

  const pending: MockRoutes['songs.page'] = () => new Promise<Response>(() => undefined);
  const none: MockRoutes['songs.page'] = () => makeSongPage([], { total: 0 });
  it.each([
    ['while their songs load', pending, RadioWaitReasons.loading],
    ['when they have no songs', none, RadioWaitReasons.empty],
  ])('disables Start radio, saying why, %s', async (_, songsPage, reason) => {
    artistApi({ 'songs.page': songsPage });
    renderAt('/dashboard/artist/3');
    await advance(1000);
    expect(startRadioButton()).toBeDisabled();
    expect(startRadioButton()).toHaveAttribute('title', reason);
  });

  it('on a cold load (no navigation state) fetches the artist and shows header, albums, songs and other credits', async () => {
    const api = artistApi();
    renderAt('/dashboard/artist/3');
    expect(screen.getByRole('status').textContent).toContain('Loading artist');
    await advance(1000);
    expect(api.requests('artists.get')[0]?.url).toMatch(/\/artists\/3$/);
    expect(screen.getByRole('heading', { level: 1, name: 'Nina Simone' })).toBeInTheDocument();
    expect(document.querySelector('img[src="/media/images/nina.webp?w=300"]')).not.toBeNull();
    expect(within(screen.getByRole('list', { name: 'Albums by Nina Simone' })).getByRole('link')).toHaveAccessibleName(
      'Wild Is the Wind',
    );
    expect(new URL(api.requests('songs.page')[0]?.url ?? '').searchParams.get('artistId')).toBe('3');
    expect(
      within(screen.getByRole('list', { name: 'Songs by Nina Simone' })).getByRole('listitem', {
        name: 'Feeling Good',
      }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Also credited on' })).toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: 'Composed for Others' })).toBeInTheDocument();
    expect(document.title).toBe('Nina Simone · Tonearm');
  });

  it('shows the name passed along at once, before the artist’s details arrive', async () => {
    artistApi({ 'artists.get': () => new Promise<Response>(() => undefined) });
    renderAt({ pathname: '/dashboard/artist/3', state: { artist: { id: 3, name: 'Nina Simone' } } });
    await flush();
    expect(screen.getByRole('heading', { level: 1, name: 'Nina Simone' })).toBeInTheDocument();
  });

  it('ignores details passed along for another artist', async () => {
    artistApi({ 'artists.get': () => new Promise<Response>(() => undefined) });
    renderAt({ pathname: '/dashboard/artist/3', state: { artist: { id: 9, name: 'Someone Else' } } });
    await flush();
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
    expect(screen.getByRole('status').textContent).toContain('Loading artist');
  });

  it('says "Artist not found" for an id nobody has, with ways back to the artists and home', async () => {
    artistApi();
    renderAt('/dashboard/artist/999');
    await flush();
    await flush();
    expect(screen.getByRole('heading', { level: 1, name: 'Artist not found' })).toBeInTheDocument();
    expect(screen.getByText(UiMessages.artistNotFound, { exact: false })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse artists' }).getAttribute('href')).toBe('/dashboard/artist');
    expect(screen.getByRole('link', { name: 'Go to Home' }).getAttribute('href')).toBe('/dashboard');
    expect(document.title).toBe('Artist not found · Tonearm');
  });

  it.each(['abc', '0', '-3', '07', '3.5', '1e3', '99999999999999999'])(
    'says "Artist not found" for the invalid id %s without asking the server',
    async (id) => {
      const api = artistApi();
      renderAt(`/dashboard/artist/${id}`);
      await flush();
      expect(screen.getByRole('heading', { level: 1, name: 'Artist not found' })).toBeInTheDocument();
      expect(api.requests('artists.get')).toHaveLength(0);
    },
  );

  it('offers to try again when the artist cannot be loaded, and then shows them', async () => {
    let fail = true;
    artistApi({
      'artists.get': () => (fail ? errorResponse(500, 'internal-error', 'down') : nina),
    });
    renderAt('/dashboard/artist/3');
    await advance(10_000);
    expect(screen.getByText(UiMessages.artistUnavailable)).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await flush();
    await flush();
    expect(screen.getByRole('heading', { level: 1, name: 'Nina Simone' })).toBeInTheDocument();
  });
});

describe('artistIdOf', () => {
  it('reads a plainly written positive whole number only', () => {
    expect(artistIdOf('7')).toBe(7);
    expect(artistIdOf('1234567890')).toBe(1234567890);
    for (const segment of [undefined, '', '0', '07', '-1', '1.0', '1e3', ' 7', 'seven', '9007199254740993']) {
      expect(artistIdOf(segment)).toBeNull();
    }
  });
});
