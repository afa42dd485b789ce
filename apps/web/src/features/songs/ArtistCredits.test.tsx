import { screen, within } from '@testing-library/react';
import type { ArtistCreditPage } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SongsPage } from '../../app/SongsPage.js';
import { errorResponse, makeArtist, makeSong, makeSongPage } from '../../test/fixtures.js';
import { mockApi, type MockRoutes } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { advance, flush } from '../../test/timers.js';

const nina = makeArtist(3, { name: 'Nina Simone', image: '/media/images/nina.webp' });
/** A song of one artist. */
const songBy = (id: number, name: string, artist: { id: number; name: string }) =>
  makeSong(id, { name, artistId: artist.id, artistName: artist.name, artists: [artist], displayArtist: artist.name });
const own = songBy(7, 'Feeling Good', { id: nina.id, name: nina.name });
const composed = songBy(20, 'Composed for Others', { id: 8, name: 'Other Singer' });
const played = songBy(21, 'Guitar Session', { id: 9, name: 'Band' });

/** The artist's page (the song list with the artist passed along), with their songs and these answers. */
async function renderArtistPage(routes: MockRoutes) {
  const api = mockApi({
    'songs.page': () => makeSongPage([own], { total: 1, seed: 5 }),
    'albums.list': () => ({ items: [], nextCursor: null, total: 0 }),
    ...routes,
  });
  renderInApp(<SongsPage />, { route: { pathname: '/dashboard/songs', state: { artist: nina } } });
  await flush();
  await flush();
  return api;
}

describe("an artist's page: the songs crediting them in other roles", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lists them after the artist’s own songs, under "Also credited on", each with the roles, page by page', async () => {
    const first: ArtistCreditPage = {
      items: [
        {
          song: composed,
          roles: [
            { role: 'producer', subRole: null },
            { role: 'composer', subRole: null },
          ],
        },
      ],
      nextCursor: 'next',
      total: 2,
    };
    const next: ArtistCreditPage = {
      items: [{ song: played, roles: [{ role: 'performer', subRole: 'guitar' }] }],
      nextCursor: null,
      total: 2,
    };
    const api = await renderArtistPage({
      'artists.credits': (request) => (new URL(request.url).searchParams.get('cursor') === 'next' ? next : first),
    });
    const requests = api.requests('artists.credits').map((request) => new URL(request.url));
    expect(requests.map((url) => url.pathname)).toEqual(['/api/artists/3/credits', '/api/artists/3/credits']);
    expect(requests.map((url) => url.searchParams.get('cursor'))).toEqual([null, 'next']);
    await advance(100);

    const heading = screen.getByRole('heading', { level: 2, name: 'Also credited on' });
    const ownSongs = screen.getByRole('list', { name: 'Songs by Nina Simone' });
    const credits = screen.getByRole('list', { name: 'Songs crediting Nina Simone' });
    expect(
      within(ownSongs)
        .getAllByRole('listitem')
        .map((row) => row.getAttribute('aria-label')),
    ).toEqual(['Feeling Good']);
    expect(ownSongs.compareDocumentPosition(heading) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(heading.compareDocumentPosition(credits) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const rows = within(credits).getAllByRole('listitem');
    expect(rows.map((row) => row.getAttribute('aria-label'))).toEqual(['Composed for Others', 'Guitar Session']);
    expect(rows.map((row) => row.querySelector('.song-row__genre')?.textContent)).toEqual([
      'Composer, Producer',
      'Performer (guitar)',
    ]);
    expect(rows.map((row) => row.getAttribute('aria-setsize'))).toEqual(['2', '2']);
    // Each credited song's own artist links to their page.
    expect(within(credits).getByRole('link', { name: 'Other Singer' })).toBeInTheDocument();
  });

  it('shows nothing when no song credits the artist in another role', async () => {
    await renderArtistPage({ 'artists.credits': () => ({ items: [], nextCursor: null, total: 0 }) });
    expect(screen.getByRole('list', { name: 'Songs by Nina Simone' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Also credited on' })).toBeNull();
    expect(screen.queryByRole('list', { name: 'Songs crediting Nina Simone' })).toBeNull();
  });

  it('shows nothing for an artist the server does not know', async () => {
    await renderArtistPage({ 'artists.credits': () => errorResponse(404, 'not-found', 'Artist not found') });
    expect(screen.getByRole('list', { name: 'Songs by Nina Simone' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Also credited on' })).toBeNull();
  });

  it('offers Try again when the credits could not be loaded, and shows them once they are', async () => {
    let fail = true;
    const api = await renderArtistPage({
      'artists.credits': () =>
        fail
          ? errorResponse(503, 'unavailable', 'Try later')
          : { items: [{ song: composed, roles: [{ role: 'composer', subRole: null }] }], nextCursor: null, total: 1 },
    });
    // A server error gets one more try (the app's query client), then the section says so.
    await advance(5_000);
    expect(api.requests('artists.credits')).toHaveLength(2);
    const section = screen.getByRole('region', { name: 'Also credited on' });
    fail = false;
    within(section).getByRole('button', { name: 'Try again' }).click();
    await flush();
    await flush();
    expect(api.requests('artists.credits')).toHaveLength(3);
    const credits = within(section).getByRole('list', { name: 'Songs crediting Nina Simone' });
    expect(within(credits).getByRole('listitem', { name: 'Composed for Others' })).toBeInTheDocument();
  });
});
