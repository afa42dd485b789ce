import { act, fireEvent, screen, within } from '@testing-library/react';
import type { Song } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ArtistAddressPage } from '../../app/ArtistAddressPage.js';
import { makeArtist, makeSong, makeSongPage } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { advance } from '../../test/timers.js';
import { PlayerBar } from '../player-bar/PlayerBar.js';
import { artistSegments } from './SongArtists.js';
import { SongList } from './SongList.js';
import { SongTile } from './SongTile.js';

const nina = { id: 3, name: 'Nina Simone' };
const lee = { id: 4, name: 'Lee Morgan' };
const duet = makeSong(9, {
  name: 'Duet',
  artistId: nina.id,
  artistName: nina.name,
  artists: [nina, lee],
  displayArtist: 'Nina Simone feat. Lee Morgan',
});

/** The texts of the artist links inside `element`. */
const linksIn = (element: HTMLElement) =>
  within(element)
    .queryAllByRole('link')
    .filter((link) => link.classList.contains('artist-link'))
    .map((link) => link.textContent);

describe('artistSegments', () => {
  it('links each artist where the display names them, keeping the text between', () => {
    expect(artistSegments(duet)).toEqual([
      { text: 'Nina Simone', artist: nina },
      { text: ' feat. ' },
      { text: 'Lee Morgan', artist: lee },
    ]);
  });

  it('joins the names by commas when the display does not show them all in order', () => {
    const renamed = { ...duet, artists: [nina, { id: 4, name: 'Lee M.' }] };
    expect(artistSegments(renamed)).toEqual([
      { text: 'Nina Simone', artist: nina },
      { text: ', ' },
      { text: 'Lee M.', artist: { id: 4, name: 'Lee M.' } },
    ]);
  });

  it('keeps text the display adds after the artists, and one artist is one link', () => {
    const one = makeSong(1);
    expect(artistSegments(one)).toEqual([{ text: 'Artist 1', artist: { id: 1, name: 'Artist 1' } }]);
    const featuring = { ...one, displayArtist: 'Artist 1 feat. Someone' };
    expect(artistSegments(featuring)).toEqual([
      { text: 'Artist 1', artist: { id: 1, name: 'Artist 1' } },
      { text: ' feat. Someone' },
    ]);
  });

  it('is plain text for a song of no known artist, and links the main artist of a song an older app stored', () => {
    const unknown = makeSong(2, { artistId: null, artistName: 'Unknown artist', artists: [], displayArtist: '' });
    expect(artistSegments(unknown)).toEqual([{ text: 'Unknown artist' }]);
    const { artists: _artists, displayArtist: _display, ...stored } = makeSong(5, { artistId: 8, artistName: 'Old' });
    expect(artistSegments(stored as Song)).toEqual([{ text: 'Old', artist: { id: 8, name: 'Old' } }]);
  });
});

describe('every artist of a song links to their page', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('in a song row: one link per artist; the second opens their page, with their photo fetched', async () => {
    const api = mockApi({
      'artists.get': () => makeArtist(lee.id, { name: lee.name, image: '/media/images/lee.webp?w=300' }),
      'songs.page': () => makeSongPage([duet]),
      'albums.list': () => ({ items: [], nextCursor: null, total: 0 }),
      'artists.credits': () => ({ items: [], nextCursor: null, total: 0 }),
    });
    renderInApp(<SongList songs={[duet, makeSong(1, { name: 'Solo' })]} label="Songs" />, {
      route: '/dashboard/search',
      routes: { '/dashboard/artist/:id': <ArtistAddressPage /> },
    });
    const row = screen.getByRole('listitem', { name: 'Duet' });
    expect(linksIn(row)).toEqual(['Nina Simone', 'Lee Morgan']);
    expect(row.querySelector('.song-row__artist')?.textContent).toBe('Nina Simone feat. Lee Morgan');
    // A song of one artist reads as before: its artist's name, now a link.
    const solo = screen.getByRole('listitem', { name: 'Solo' });
    expect(linksIn(solo)).toEqual(['Artist 1']);
    expect(solo.querySelector('.song-row__artist')?.textContent).toBe('Artist 1');

    fireEvent.click(within(row).getByRole('link', { name: 'Lee Morgan' }));
    await advance(0);
    expect(screen.getByTestId('location').textContent).toBe('/dashboard/artist/4');
    expect(screen.getByRole('heading', { level: 1, name: 'Lee Morgan' })).toBeInTheDocument();
    expect(new URL(api.requests('songs.page')[0]?.url ?? '').searchParams.get('artistId')).toBe('4');
    expect(api.requests('artists.get')[0]?.url).toMatch(/\/artists\/4$/);
    expect(document.querySelector('img[src="/media/images/lee.webp?w=300"]')).not.toBeNull();
  });

  it('on a song tile and in the player bar', () => {
    mockApi({});
    const view = renderInApp(
      <>
        <div role="list" aria-label="Shelf">
          <SongTile song={duet} list={[duet]} />
        </div>
        <PlayerBar queueId="q" queueOpen={false} onToggleQueue={vi.fn()} />
      </>,
    );
    expect(linksIn(within(screen.getByRole('list', { name: 'Shelf' })).getByRole('listitem'))).toEqual([
      'Nina Simone',
      'Lee Morgan',
    ]);
    act(() => {
      view.player.controls.playList([duet], 0);
    });
    const bar = screen.getByRole('region', { name: 'Player' });
    expect(linksIn(bar)).toEqual(['Nina Simone', 'Lee Morgan']);
    expect(bar.querySelector('.now-playing__artist')?.textContent).toBe('Nina Simone feat. Lee Morgan');
  });
});
