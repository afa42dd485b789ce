import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeSong } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { creditLines, roleLabel, rolesText } from './credits.js';
import { SongList } from './SongList.js';

const credited = makeSong(9, {
  name: 'Credited',
  artistId: 3,
  artistName: 'Nina Simone',
  artists: [
    { id: 3, name: 'Nina Simone' },
    { id: 4, name: 'Lee Morgan' },
  ],
  displayArtist: 'Nina Simone & Lee Morgan',
  albumId: 12,
  albumName: 'Sessions',
  trackNumber: 2,
  year: 1965,
  contributors: [
    { role: 'producer', subRole: null, artistId: 6, artistName: 'Rudy' },
    { role: 'composer', subRole: null, artistId: 5, artistName: 'Cara Cole' },
    { role: 'performer', subRole: 'guitar', artistId: 7, artistName: 'Gus' },
    { role: 'composer', subRole: null, artistId: 4, artistName: 'Lee Morgan' },
    { role: 'performer', subRole: 'vocals', artistId: 3, artistName: 'Nina Simone' },
    { role: 'djmixer', subRole: null, artistId: 8, artistName: 'DJ Eight' },
  ],
});

function openDetails(name: string): HTMLElement {
  fireEvent.click(screen.getByRole('button', { name: `More options for ${name}` }));
  fireEvent.click(screen.getByRole('menuitem', { name: 'Details' }));
  return screen.getByRole('dialog', { name });
}

/** The description lists (`dl`, which has no ARIA role of its own) inside `element`. */
const descriptionLists = (element: HTMLElement): HTMLElement[] => Array.from(element.querySelectorAll('dl'));

/** The description list's lines as "term: description" texts. */
const lines = (list: HTMLElement) =>
  within(list)
    .getAllByRole('term')
    .map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent ?? ''}`);

describe('credits', () => {
  it('groups contributors by role and sub-role, composers first, each artist once', () => {
    expect(creditLines(credited.contributors).map((line) => [line.label, line.artists.map((a) => a.name)])).toEqual([
      ['Composer', ['Cara Cole', 'Lee Morgan']],
      ['Performer (guitar)', ['Gus']],
      ['Performer (vocals)', ['Nina Simone']],
      ['Producer', ['Rudy']],
      ['DJ mixer', ['DJ Eight']],
    ]);
    expect(creditLines([])).toEqual([]);
    expect(creditLines(undefined)).toEqual([]);
  });

  it('names roles, unknown ones capitalised', () => {
    expect(roleLabel({ role: 'djmixer', subRole: null })).toBe('DJ mixer');
    expect(roleLabel({ role: 'writer', subRole: null })).toBe('Writer');
    expect(
      rolesText([
        { role: 'producer', subRole: null },
        { role: 'composer', subRole: null },
      ]),
    ).toBe('Composer, Producer');
  });
});

describe('Details in the song menu', () => {
  it('shows the artists, album and facts, then the credits by role, every artist linked', () => {
    mockApi({});
    renderInApp(<SongList songs={[credited]} label="Songs" />);
    const dialog = openDetails('Credited');
    const [details, credits] = descriptionLists(dialog);
    if (details === undefined || credits === undefined) throw new Error('two description lists expected');
    expect(lines(details)).toEqual([
      'Artists: Nina Simone & Lee Morgan',
      'Album: Sessions',
      'Track: 2',
      'Year: 1965',
      'Genre: Pop',
      'Length: 3:00',
      'Rating: Not rated',
    ]);
    expect(within(details).getByRole('link', { name: 'Sessions' })).toHaveAttribute('href', '/dashboard/album?id=12');
    expect(
      within(details)
        .getAllByRole('link', { name: /Nina|Lee/ })
        .map((link) => link.textContent),
    ).toEqual(['Nina Simone', 'Lee Morgan']);

    expect(within(dialog).getByRole('region', { name: 'Credits' })).toContainElement(credits);
    expect(lines(credits)).toEqual([
      'Composer: Cara Cole, Lee Morgan',
      'Performer (guitar): Gus',
      'Performer (vocals): Nina Simone',
      'Producer: Rudy',
      'DJ mixer: DJ Eight',
    ]);
    const [composers] = within(credits).getAllByRole('definition');
    if (composers === undefined) throw new Error('no composers');
    expect(
      within(composers)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Cara Cole', 'Lee Morgan']);
    // Each artist at their own address (issue 26).
    for (const link of within(credits).getAllByRole('link')) {
      expect(link.getAttribute('href')).toMatch(/^\/dashboard\/artist\/\d+$/);
    }
  });

  it('has no credits section for a song without contributors', () => {
    mockApi({});
    renderInApp(<SongList songs={[makeSong(1, { name: 'Plain' })]} label="Songs" />);
    const dialog = openDetails('Plain');
    expect(descriptionLists(dialog)).toHaveLength(1);
    expect(within(dialog).queryByRole('region', { name: 'Credits' })).toBeNull();
    expect(within(dialog).queryByRole('heading', { name: 'Credits' })).toBeNull();
    const [details] = descriptionLists(dialog);
    if (details === undefined) throw new Error('no details');
    expect(lines(details)).toEqual(['Artist: Artist 1', 'Genre: Pop', 'Length: 3:00', 'Rating: Not rated']);
  });

  it('rates the song from its details (issue 28): PUT at once, then a click on the same star clears it', async () => {
    const api = mockApi({
      'ratings.rateSong': () => new Response(null, { status: 204 }),
      'ratings.unrateSong': () => new Response(null, { status: 204 }),
    });
    renderInApp(<SongList songs={[makeSong(4, { name: 'Rated', rating: 2 })]} label="Songs" />);
    const dialog = openDetails('Rated');
    const group = within(dialog).getByRole('group', { name: 'Rating of Rated' });
    expect(within(group).getByText('Rated 2 stars of 5')).toBeInTheDocument();
    fireEvent.click(within(group).getByRole('button', { name: 'Rate 5 stars' }));
    expect(within(group).getByText('Rated 5 stars of 5')).toBeInTheDocument();
    await waitFor(() => {
      expect(api.requests('ratings.rateSong')).toHaveLength(1);
    });
    const sent = api.requests('ratings.rateSong')[0];
    expect(new URL(sent?.url ?? '').pathname).toBe('/api/songs/4/rating');
    expect(await sent?.json()).toEqual({ rating: 5 });
    fireEvent.click(within(group).getByRole('button', { name: 'Clear the rating (5 stars)' }));
    expect(within(group).getByText('Not rated')).toBeInTheDocument();
    await waitFor(() => {
      expect(api.requests('ratings.unrateSong')).toHaveLength(1);
    });
  });

  it("following a credit's link opens that artist's page and closes the dialog", () => {
    mockApi({});
    renderInApp(<SongList songs={[credited]} label="Songs" />, {
      route: '/dashboard/search',
      routes: { '/dashboard/artist/:artistId': <p>Artist page</p> },
    });
    const dialog = openDetails('Credited');
    fireEvent.click(within(dialog).getByRole('link', { name: 'Cara Cole' }));
    expect(screen.getByTestId('location').textContent).toMatch(/^\/dashboard\/artist\/\d+$/);
    expect(screen.getByText('Artist page')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
