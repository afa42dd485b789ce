import { fireEvent, screen, within } from '@testing-library/react';
import { UNKNOWN_ALBUM, type Song } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readRecentSongs } from '../../lib/recent-songs.js';
import type { SongSource } from '../../lib/song-sources.js';
import { errorResponse, makeSong, makeUser, pagedSongs } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { ScrollArea } from '../../test/scroll-area.js';
import { advance, flush } from '../../test/timers.js';
import { PagedSongList } from './PagedSongList.js';
import { SONG_ROW_HEIGHT, SongList } from './SongList.js';
import { usePagedSongs } from './useSongs.js';

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

  it('names the album and track number of songs on one (shown on wide screens), linking to the album', () => {
    const onAlbum = makeSong(3, { name: 'Flamenco Sketches', albumId: 5, albumName: 'Kind of Blue', trackNumber: 5 });
    // Songs stored by an older web app have no album fields at all.
    const { albumId: _a, albumName: _n, trackNumber: _t, discNumber: _d, year: _y, ...stored } = makeSong(4);
    renderInApp(<SongList songs={[onAlbum, stored as Song, makeSong(6)]} label="Songs" />);
    const album = screen.getByRole('listitem', { name: 'Flamenco Sketches' }).querySelector('.song-row__album');
    expect(
      within(album as HTMLElement)
        .getByRole('link', { name: 'Kind of Blue' })
        .getAttribute('href'),
    ).toBe('/dashboard/album?id=5');
    expect(album?.textContent).toContain('Track 5');
    for (const name of ['Song 4', 'Song 6']) {
      const cell = screen.getByRole('listitem', { name }).querySelector('.song-row__album');
      expect(cell?.textContent).toBe('');
    }
  });

  it('names a song without an album of its own by its artist’s “Unknown album”, quieter than an album', () => {
    const loose = makeSong(7, { name: 'Voice Memo', albumId: 9, albumName: UNKNOWN_ALBUM });
    renderInApp(<SongList songs={[loose]} label="Songs" />);
    const link = within(screen.getByRole('listitem', { name: 'Voice Memo' })).getByRole('link', {
      name: UNKNOWN_ALBUM,
    });
    expect(link.getAttribute('href')).toBe('/dashboard/album?id=9');
    expect(link.classList.contains('song-row__album-link--placeholder')).toBe(true);
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
    const menu = openMenu('Blue in Green');
    expect(itemNames(menu)).toEqual([
      'Edit',
      'Playlist +',
      'Download',
      'Details',
      'Play next',
      'Add to queue',
      'Start radio',
      'Delete',
    ]);
    // Delete is last, after a line: not right under Edit (issue 26).
    expect(within(menu).getAllByRole('separator')).toHaveLength(1);
    unmount();

    renderInApp(<SongList songs={songs} label="Songs" />, { user: listener });
    expect(itemNames(openMenu('Blue in Green'))).toEqual([
      'Playlist +',
      'Download',
      'Details',
      'Play next',
      'Add to queue',
      'Start radio',
    ]);
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
    expect(document.activeElement?.textContent).toBe('Playlist +');
    fireEvent.keyDown(menu, { key: 'End' });
    expect(document.activeElement?.textContent).toBe('Delete');
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('Edit');
    fireEvent.keyDown(menu, { key: 'ArrowUp' });
    expect(document.activeElement?.textContent).toBe('Delete');

    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });
});

const liked: SongSource = { kind: 'liked' };
// Below, label queries instead of role queries: those compute every element's accessible name, slowly over many rows.

function LikedList() {
  return <PagedSongList list={usePagedSongs(liked)} label="Liked songs" />;
}

const manySongs = Array.from({ length: 120 }, (_, index) => makeSong(index + 1, { likeSong: true }));

function scrollTo(row: number): Promise<void> {
  const scroller = screen.getByTestId('scroller');
  scroller.scrollTop = row * SONG_ROW_HEIGHT;
  fireEvent.scroll(scroller);
  return flush();
}

const cursorsAsked = (requests: Request[]): (string | null)[] =>
  requests.map((request) => new URL(request.url).searchParams.get('cursor'));

describe('<SongList> over a paged source', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('loads the next page only when the user scrolls near the end, with a loading row meanwhile', async () => {
    const api = mockApi({ 'likes.page': pagedSongs(manySongs, 50) });
    renderInApp(
      <ScrollArea height={128}>
        <LikedList />
      </ScrollArea>,
    );
    await flush();
    expect(cursorsAsked(api.requests('likes.page'))).toEqual([null]);
    expect(screen.getByTestId('song-loading-row')).toBeInTheDocument();
    const row = screen.getByLabelText('Song 1');
    // The server's count, not the loaded songs'.
    expect(row.getAttribute('aria-setsize')).toBe('120');

    await scrollTo(5);
    expect(cursorsAsked(api.requests('likes.page'))).toEqual([null]);
    await scrollTo(25);
    expect(cursorsAsked(api.requests('likes.page'))).toEqual([null, 'at50']);
    expect(screen.getByLabelText('Liked songs').style.height).toBe(`${100 * SONG_ROW_HEIGHT}px`);

    await scrollTo(110);
    await advance(1);
    expect(cursorsAsked(api.requests('likes.page'))).toEqual([null, 'at50', 'at100']);
    expect(screen.getByLabelText('Song 120')).toBeInTheDocument();
    expect(screen.queryByTestId('song-loading-row')).toBeNull();
    await scrollTo(115);
    expect(api.requests('likes.page')).toHaveLength(3);
  });

  it('plays a chosen song on through the source: playFrom gets the source, the loaded songs and the next cursor', async () => {
    mockApi({ 'likes.page': pagedSongs(manySongs, 50) });
    const view = renderInApp(
      <ScrollArea height={128}>
        <LikedList />
      </ScrollArea>,
    );
    await flush();
    const playFrom = vi.spyOn(view.player.controls, 'playFrom');
    fireEvent.click(screen.getByLabelText('Play Song 3'));
    expect(playFrom).toHaveBeenCalledTimes(1);
    expect(playFrom).toHaveBeenCalledWith({
      source: liked,
      songs: manySongs.slice(0, 50),
      nextCursor: 'at50',
      index: 2,
    });
    expect(view.player.store.getState().current.id).toBe(3);
  });

  it('after loading more gave up, offers Try again instead of retrying on every scroll', async () => {
    const firstPage = pagedSongs(manySongs, 50);
    let failing = true;
    const api = mockApi({
      'likes.page': (request) =>
        failing && new URL(request.url).searchParams.has('cursor')
          ? errorResponse(500, 'internal-error', 'down')
          : firstPage(request),
    });
    const view = renderInApp(
      <ScrollArea height={128}>
        <LikedList />
      </ScrollArea>,
    );
    await flush();
    await scrollTo(40);
    // SPEC §4: five attempts, 5 s apart, then the red alert.
    await advance(4 * 5000);
    expect(cursorsAsked(api.requests('likes.page'))).toEqual([null, 'at50', 'at50', 'at50', 'at50', 'at50']);
    expect(view.alertMessages()).toEqual(['Error fetching songs. Please try again later.']);
    await scrollTo(45);
    await advance(10_000);
    expect(api.requests('likes.page')).toHaveLength(6);

    failing = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await flush();
    expect(cursorsAsked(api.requests('likes.page')).at(-1)).toBe('at50');
    expect(screen.getByLabelText('Song 51')).toBeInTheDocument();
  });
});
