import { fireEvent, screen, within } from '@testing-library/react';
import type { Song } from '@tonearm/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeSong, makeUser } from '../../test/fixtures.js';
import { renderInApp } from '../../test/render.js';
import { sortSongs, useSongOrder } from './song-order.js';
import { SongList } from './SongList.js';

const alice = makeUser({ id: 11, username: 'alice' });
const bob = makeUser({ id: 12, username: 'bob' });

const songs: Song[] = [
  makeSong(1, { name: 'so What', artistName: 'Miles', durationMs: 545_000, albumName: null, albumId: null }),
  makeSong(2, { name: 'Blue in Green', artistName: 'Bill', durationMs: 337_000, albumName: null, albumId: null }),
  makeSong(3, { name: 'All Blues', artistName: 'Cannonball', durationMs: null, albumName: null, albumId: null }),
];

/** A liked-songs list as its page shows it: sorted here in the order remembered for the kind. */
function Sorted({ list }: { list: readonly Song[] }) {
  const [order, setOrder] = useSongOrder('liked');
  return (
    <SongList
      songs={sortSongs(list, order)}
      label="Liked songs"
      ordering={{ kind: 'liked', order, onChange: setOrder }}
    />
  );
}

const shown = () =>
  within(screen.getByRole('list', { name: 'Liked songs' }))
    .getAllByRole('listitem')
    .map((row) => row.getAttribute('aria-label'));
const header = (name: string) => screen.getByRole('columnheader', { name });

describe('<SongSortHeader>', () => {
  beforeEach(() => {
    localStorage.clear();
  });

  it('sorts by a column on a click, the other way round on the next, and says so in aria-sort', () => {
    renderInApp(<Sorted list={songs} />, { user: alice });
    expect(shown()).toEqual(['so What', 'Blue in Green', 'All Blues']);
    expect(header('Title').getAttribute('aria-sort')).toBe('none');
    fireEvent.click(within(header('Title')).getByRole('button'));
    expect(shown()).toEqual(['All Blues', 'Blue in Green', 'so What']);
    expect(header('Title').getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(within(header('Title')).getByRole('button', { name: /Title/ }));
    expect(shown()).toEqual(['so What', 'Blue in Green', 'All Blues']);
    expect(header('Title').getAttribute('aria-sort')).toBe('descending');
    // Another column starts ascending; the first goes back to none.
    fireEvent.click(within(header('Duration')).getByRole('button'));
    expect(shown()).toEqual(['All Blues', 'Blue in Green', 'so What']);
    expect(header('Duration').getAttribute('aria-sort')).toBe('ascending');
    expect(header('Title').getAttribute('aria-sort')).toBe('none');
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Sort by' }).value).toBe('duration:asc');
  });

  it('remembers the order per user after a remount, and Sort by goes back to the list’s own order', () => {
    const first = renderInApp(<Sorted list={songs} />, { user: alice });
    fireEvent.change(screen.getByRole('combobox', { name: 'Sort by' }), { target: { value: 'artist:desc' } });
    expect(shown()).toEqual(['so What', 'All Blues', 'Blue in Green']);
    first.unmount();

    const again = renderInApp(<Sorted list={songs} />, { user: alice });
    expect(shown()).toEqual(['so What', 'All Blues', 'Blue in Green']);
    expect(header('Artist').getAttribute('aria-sort')).toBe('descending');
    again.unmount();

    const other = renderInApp(<Sorted list={songs} />, { user: bob });
    expect(shown()).toEqual(['so What', 'Blue in Green', 'All Blues']);
    other.unmount();

    renderInApp(<Sorted list={songs} />, { user: alice });
    const select = screen.getByRole('combobox', { name: 'Sort by' });
    expect(within(select).getByRole('option', { name: 'Recently liked' })).toBeTruthy();
    fireEvent.change(select, { target: { value: 'list' } });
    expect(shown()).toEqual(['so What', 'Blue in Green', 'All Blues']);
    expect(screen.getAllByRole('columnheader').every((cell) => cell.getAttribute('aria-sort') === 'none')).toBe(true);
  });

  it('hides the album and duration headers while no song shown has one', () => {
    const bare = songs.map((song) => ({ ...song, durationMs: null }));
    const { unmount } = renderInApp(<Sorted list={bare} />, { user: alice });
    const names = () => screen.getAllByRole('columnheader').map((cell) => cell.textContent);
    expect(names()).toEqual(['Title', 'Artist', 'Genre', 'Plays']);
    expect(document.querySelector('.song-list--no-album')).not.toBeNull();
    unmount();

    renderInApp(<Sorted list={[...songs, makeSong(4, { albumId: 2, albumName: 'Kind of Blue' })]} />, { user: alice });
    expect(names()).toEqual(['Title', 'Artist', 'Album', 'Genre', 'Plays', 'Duration']);
    expect(document.querySelector('.song-list--no-album')).toBeNull();
  });

  it('shows each song’s plays, 0 included, and sorts most played first on the first click', () => {
    const played = [
      makeSong(1, { name: 'so What', plays: 2 }),
      makeSong(2, { name: 'Blue in Green', plays: 0 }),
      makeSong(3, { name: 'All Blues', plays: 9 }),
      makeSong(4, { name: 'Freddie', plays: 2 }),
    ];
    renderInApp(<Sorted list={played} />, { user: alice });
    const counts = () =>
      within(screen.getByRole('list', { name: 'Liked songs' }))
        .getAllByRole('listitem')
        .map((row) => row.querySelector('.song-row__plays')?.textContent);
    expect(counts()).toEqual(['2', '0', '9', '2']);
    fireEvent.click(within(header('Plays')).getByRole('button', { name: /Plays/ }));
    // Ties by id in the same direction, as the server sorts.
    expect(shown()).toEqual(['All Blues', 'Freddie', 'so What', 'Blue in Green']);
    expect(header('Plays').getAttribute('aria-sort')).toBe('descending');
    const select = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Sort by' });
    expect(select.value).toBe('plays:desc');
    expect(within(select).getByRole('option', { name: 'Plays (most played first)' })).toBeTruthy();
    fireEvent.click(within(header('Plays')).getByRole('button'));
    expect(shown()).toEqual(['Blue in Green', 'so What', 'Freddie', 'All Blues']);
    expect(counts()).toEqual(['0', '2', '2', '9']);
    expect(header('Plays').getAttribute('aria-sort')).toBe('ascending');
  });

  it('counts a song kept from an older answer, without plays, as never played', () => {
    const old = makeSong(5, { name: 'Flamenco Sketches' }) as Partial<Song>;
    delete old.plays;
    expect(sortSongs([old as Song, makeSong(6, { plays: 1 })], { by: 'plays', direction: 'desc' })[0]?.id).toBe(6);
    renderInApp(<Sorted list={[old as Song]} />, { user: alice });
    const row = within(screen.getByRole('list', { name: 'Liked songs' })).getByRole('listitem');
    expect(row.querySelector('.song-row__plays')?.textContent).toBe('0');
  });

  it('sorts a loaded list by the caller’s rating (issue 28): highest first, unrated last, ties by id; from the select', () => {
    const five = makeSong(3, { name: 'Five', rating: 5 });
    const songs = [
      makeSong(1, { name: 'Unrated one' }),
      makeSong(2, { name: 'Three', rating: 3 }),
      five,
      makeSong(4, { name: 'Unrated two' }),
      makeSong(5, { name: 'Three again', rating: 3 }),
    ];
    const names = (order: 'asc' | 'desc') =>
      sortSongs(songs, { by: 'rating', direction: order }).map((song) => song.name);
    expect(names('desc')).toEqual(['Five', 'Three again', 'Three', 'Unrated two', 'Unrated one']);
    expect(names('asc')).toEqual(['Unrated one', 'Unrated two', 'Three', 'Three again', 'Five']);
    // A song kept from an older answer, without `rating`, counts as unrated.
    const old = makeSong(6, { name: 'Old' }) as Partial<Song>;
    delete old.rating;
    expect(sortSongs([old as Song, five], { by: 'rating', direction: 'desc' }).map((s) => s.id)).toEqual([3, 6]);
    renderInApp(<Sorted list={songs} />, { user: alice });
    fireEvent.change(screen.getByRole('combobox', { name: 'Sort by' }), { target: { value: 'rating:desc' } });
    expect(shown()).toEqual(['Five', 'Three again', 'Three', 'Unrated two', 'Unrated one']);
    expect(
      within(screen.getByRole('combobox', { name: 'Sort by' })).getByRole('option', {
        name: 'Rating (highest rated first)',
      }),
    ).toBeInTheDocument();
  });
});
