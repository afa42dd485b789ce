import { fireEvent, screen, within } from '@testing-library/react';
import type { Song } from '@tonearm/contract';
import { describe, expect, it } from 'vitest';
import { readRecentSongs } from '../../lib/recent-songs.js';
import { makeSong, makeUser } from '../../test/fixtures.js';
import { renderInApp } from '../../test/render.js';
import { SongList } from './SongList.js';

const songs: Song[] = [makeSong(1, { name: 'Blue in Green' }), makeSong(2, { name: 'So What' })];
const admin = makeUser({ role: 'ADMIN' });
const listener = makeUser({ role: 'USER' });

function openMenu(name: string): HTMLElement {
  fireEvent.click(screen.getByRole('button', { name: `More options for ${name}` }));
  return screen.getByRole('menu');
}

const itemNames = (menu: HTMLElement): string[] =>
  within(menu)
    .getAllByRole('menuitem')
    .map((item) => item.textContent);

describe('<SongList>', () => {
  it('shows each song as a named list item with image, name and artist name', () => {
    renderInApp(<SongList songs={songs} label="Songs" />);
    const list = screen.getByRole('list', { name: 'Songs' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.getAttribute('aria-label'))).toEqual(['Blue in Green', 'So What']);
    const row = screen.getByRole('listitem', { name: 'Blue in Green' });
    expect(row.textContent).toContain('Artist 1');
    expect(row.querySelector('img')?.getAttribute('src')).toBe('/media/images/1.webp?w=64');
  });

  it('shows three skeleton placeholders while the list is empty', () => {
    renderInApp(<SongList songs={[]} label="Songs" status="loading" />);
    expect(screen.getAllByTestId('song-skeleton')).toHaveLength(3);
    expect(screen.queryByRole('list')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Loading songs');
  });

  it('keeps the skeletons for a loaded empty list and says so', () => {
    renderInApp(<SongList songs={[]} label="Songs" status="ready" />);
    expect(screen.getAllByTestId('song-skeleton')).toHaveLength(3);
    expect(screen.getByText('No songs here yet.')).toBeInTheDocument();
  });

  it('offers Edit and Delete in the menu to administrators only', () => {
    const { unmount } = renderInApp(<SongList songs={songs} label="Songs" />, { user: admin });
    expect(itemNames(openMenu('Blue in Green'))).toEqual([
      'Edit',
      'Delete',
      'Playlist +',
      'Download',
      'Play next',
      'Add to queue',
    ]);
    unmount();

    renderInApp(<SongList songs={songs} label="Songs" />, { user: listener });
    expect(itemNames(openMenu('Blue in Green'))).toEqual(['Playlist +', 'Download', 'Play next', 'Add to queue']);
  });

  it('shows the add-song tile to administrators only', () => {
    const { unmount } = renderInApp(<SongList songs={songs} label="Songs" allowAdd />, { user: admin });
    expect(screen.getByRole('button', { name: 'Add song' })).toBeInTheDocument();
    unmount();
    renderInApp(<SongList songs={songs} label="Songs" allowAdd />, { user: listener });
    expect(screen.queryByRole('button', { name: 'Add song' })).toBeNull();
  });

  it('plays a chosen song: sets the list, index and current song, and adds it to recent songs', () => {
    const { player } = renderInApp(<SongList songs={songs} label="Songs" />);
    fireEvent.click(screen.getByRole('button', { name: 'Play So What' }));

    const state = player.store.getState();
    expect(state.current.id).toBe(2);
    expect(state.index).toBe(1);
    expect(state.queue).toEqual([1, 2]);
    expect(state.playing).toBe(true);
    expect(readRecentSongs().map((song) => song.id)).toEqual([2]);

    // The toggle follows the player.
    const pause = screen.getByRole('button', { name: 'Pause So What' });
    expect(screen.getByRole('button', { name: 'Play Blue in Green' })).toBeInTheDocument();
    fireEvent.click(pause);
    expect(player.store.getState().playing).toBe(false);
    expect(screen.getByRole('button', { name: 'Play So What' })).toBeInTheDocument();
  });
});

describe('song menu keyboard', () => {
  it('opens with ArrowDown on the first item, moves with arrows and closes with Escape', () => {
    renderInApp(<SongList songs={songs} label="Songs" />, { user: admin });
    const button = screen.getByRole('button', { name: 'More options for So What' });
    button.focus();
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    const menu = screen.getByRole('menu', { name: 'More options for So What' });
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement?.textContent).toBe('Edit');

    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('Delete');
    fireEvent.keyDown(menu, { key: 'End' });
    expect(document.activeElement?.textContent).toBe('Add to queue');
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('Edit');
    fireEvent.keyDown(menu, { key: 'ArrowUp' });
    expect(document.activeElement?.textContent).toBe('Add to queue');

    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });
});
