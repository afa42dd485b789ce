import { fireEvent, screen, within } from '@testing-library/react';
import type { Song } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SongSource } from '../../lib/song-sources.js';
import { errorResponse, makeSong, makeSongPage, pagedSongs } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { ScrollArea } from '../../test/scroll-area.js';
import { advance } from '../../test/timers.js';
import { catalogueSource } from './catalogue.js';
import { PagedSongList } from './PagedSongList.js';
import { usePagedSongs } from './useSongs.js';

const liked: SongSource = { kind: 'liked' };

/** The catalogue and the liked songs on one screen, as the home page and a list can be. */
function TwoLists() {
  const catalogue = usePagedSongs(catalogueSource());
  const likedSongs = usePagedSongs(liked);
  return (
    <>
      <p data-testid="liked-total">{likedSongs.total}</p>
      <button type="button" onClick={() => void likedSongs.query.refetch()}>
        Refetch liked
      </button>
      <PagedSongList list={catalogue} label="Songs" />
      <PagedSongList list={likedSongs} label="Liked songs" />
    </>
  );
}

const catalogue = Array.from({ length: 120 }, (_, index) => makeSong(index + 1));

// Label queries: role queries compute every element's accessible name, which is slow over two lists of rows.
const listOf = (label: string): HTMLElement | null => document.querySelector(`[role="list"][aria-label="${label}"]`);
const rowsOf = (label: string): string[] =>
  Array.from(listOf(label)?.querySelectorAll('[role="listitem"]') ?? [], (row) => row.getAttribute('aria-label') ?? '');
const likeButton = (label: string, songName: string): HTMLElement =>
  within(listOf(label) ?? document.body).getByLabelText(`Like ${songName}`);

describe('likes in paged lists', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('an unlike leaves the liked songs at once, and comes back if the server refuses it', async () => {
    const song = makeSong(7, { name: 'Naima', likeSong: true });
    mockApi({
      'songs.page': () => makeSongPage([song]),
      'likes.page': () => makeSongPage([song]),
      'likes.unlike': () =>
        new Promise((resolve) => setTimeout(() => resolve(errorResponse(500, 'internal-error', 'down')), 500)),
    });
    const view = renderInApp(
      <ScrollArea height={128}>
        <TwoLists />
      </ScrollArea>,
    );
    await advance(1);
    expect(rowsOf('Liked songs')).toEqual(['Naima']);
    fireEvent.click(likeButton('Liked songs', 'Naima'));
    await advance(1);
    await advance(1);
    expect(listOf('Liked songs')).toBeNull();
    expect(screen.getByTestId('liked-total').textContent).toBe('0');
    await advance(500);
    await advance(1);
    expect(rowsOf('Liked songs')).toEqual(['Naima']);
    expect(screen.getByTestId('liked-total').textContent).toBe('1');
    expect(view.alertMessages()).toEqual(['Could not update your liked songs']);
  });

  it('a like shows at once on every loaded page and at the top of the liked songs, before the server answers', async () => {
    const likedOnServer: Song[] = [makeSong(500, { name: 'Old favourite', likeSong: true })];
    const api = mockApi({
      // Eight a page: the catalogue loads pages until the rows in view are well inside what is loaded.
      'songs.page': pagedSongs(catalogue, 8),
      'likes.page': () => makeSongPage([...likedOnServer]),
      'likes.like': () =>
        new Promise((resolve) =>
          setTimeout(() => {
            likedOnServer.unshift(makeSong(10, { likeSong: true }));
            resolve(new Response(null, { status: 204 }));
          }, 1000),
        ),
    });
    renderInApp(
      <ScrollArea height={128}>
        <TwoLists />
      </ScrollArea>,
    );
    for (let step = 0; step < 8; step += 1) await advance(1);
    expect(api.requests('songs.page').length).toBeGreaterThan(1);
    expect(rowsOf('Liked songs')).toEqual(['Old favourite']);

    // Song 10 came with the second page.
    fireEvent.click(likeButton('Songs', 'Song 10'));
    await advance(1);
    expect(api.requests('likes.like').map((request) => request.url)).toEqual(['http://localhost/api/songs/10/like']);
    expect(likeButton('Songs', 'Song 10').getAttribute('aria-pressed')).toBe('true');
    expect(rowsOf('Liked songs')).toEqual(['Song 10', 'Old favourite']);
    expect(screen.getByTestId('liked-total').textContent).toBe('2');

    // The liked list is refetched once the server has answered, and agrees.
    const likedLoads = api.requests('likes.page').length;
    await advance(1000);
    await advance(1);
    expect(api.requests('likes.page').length).toBe(likedLoads + 1);
    expect(rowsOf('Liked songs')).toEqual(['Song 10', 'Old favourite']);
  });

  it('a like made while the liked songs are being refetched is not undone by that older answer', async () => {
    const song = makeSong(3, { name: 'Naima' });
    let likedOnServer: Song[] = [];
    let slow = false;
    mockApi({
      'songs.page': () => makeSongPage([song]),
      'likes.page': () => {
        const answer = makeSongPage([...likedOnServer]);
        return slow ? new Promise((resolve) => setTimeout(() => resolve(answer), 1000)) : answer;
      },
      // The like takes longer than the refetch: the older answer would land first.
      'likes.like': () =>
        new Promise((resolve) =>
          setTimeout(() => {
            likedOnServer = [{ ...song, likeSong: true }];
            resolve(new Response(null, { status: 204 }));
          }, 2000),
        ),
    });
    renderInApp(
      <ScrollArea height={128}>
        <TwoLists />
      </ScrollArea>,
    );
    await advance(1);
    // A refetch from before the like, still on its way when the like is pressed.
    slow = true;
    fireEvent.click(screen.getByText('Refetch liked'));
    fireEvent.click(likeButton('Songs', 'Naima'));
    slow = false;
    await advance(1);
    await advance(1);
    expect(rowsOf('Liked songs')).toEqual(['Naima']);
    await advance(1000);
    await advance(1);
    expect(rowsOf('Liked songs')).toEqual(['Naima']);
    expect(screen.getByTestId('liked-total').textContent).toBe('1');
    await advance(1000);
    await advance(1);
    expect(rowsOf('Liked songs')).toEqual(['Naima']);
  });
});
