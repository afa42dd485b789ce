import { fireEvent, screen, within } from '@testing-library/react';
import type { SearchResponse } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SEARCH_DEBOUNCE_MS } from '../../lib/useDebouncedValue.js';
import { jsonResponse, makeArtist, makePlaylist, makeSong, makeSongPage } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { advance, flush } from '../../test/timers.js';
import { useSongParams } from '../songs/SongsToolbar.js';
import { SearchPage } from './SearchPage.js';

function Search() {
  return <SearchPage params={useSongParams()} />;
}

const noMore = { songs: null, artists: null, playlists: null };

function answer(parts: Partial<SearchResponse>): SearchResponse {
  return { songs: [], artists: [], playlists: [], nextCursors: noMore, albums: [], ...parts };
}

/** The search mock: the first answer for `kind`-less requests, then `pages[kind][cursor]`. */
function searchApi(first: SearchResponse, pages: Record<string, SearchResponse> = {}) {
  return mockApi({
    'search.query': (request) => {
      const params = new URL(request.url).searchParams;
      const cursor = params.get('cursor');
      if (cursor === null) return first;
      const page = pages[`${params.get('kind') ?? ''}:${cursor}`];
      if (!page) throw new Error(`unexpected page ${request.url}`);
      return page;
    },
  });
}

/** The search requests so far (the catalogue list behind an empty box is not this test's business). */
const searches = (api: ReturnType<typeof mockApi>) => api.calls().filter((call) => call.startsWith('GET /api/search'));

const names = (list: HTMLElement, role: 'listitem' | 'link' = 'listitem') =>
  within(list)
    .getAllByRole(role)
    .map((item) => item.getAttribute('aria-label') ?? item.textContent);

describe('search results', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('loads more of one group with its kind and cursor, and only that group grows', async () => {
    const api = searchApi(
      answer({
        artists: [makeArtist(1, { name: 'Nightjar' })],
        playlists: [makePlaylist(6, { name: 'Night drive' })],
        songs: [makeSong(5, { name: 'Night Ferry' })],
        nextCursors: { songs: 's1', artists: 'a1', playlists: null },
      }),
      {
        'artists:a1': answer({
          artists: [makeArtist(2, { name: 'Nightwish' })],
          nextCursors: { ...noMore, artists: 'a2' },
        }),
        'artists:a2': answer({ artists: [makeArtist(3, { name: 'Night Beds' })] }),
        'songs:s1': answer({ songs: [makeSong(8, { name: 'Nightswimming' })] }),
      },
    );
    renderInApp(<Search />, { route: '/dashboard/songs?q=nig' });
    await flush();
    expect(searches(api)).toEqual(['GET /api/search?q=nig&limit=20']);
    expect(screen.queryByRole('button', { name: 'Show more playlists' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Show more artists' }));
    await flush();
    expect(searches(api).at(-1)).toBe('GET /api/search?q=nig&kind=artists&cursor=a1&limit=50');
    expect(names(screen.getByRole('list', { name: 'Artists' }), 'link')).toEqual(['Nightjar', 'Nightwish']);
    fireEvent.click(screen.getByRole('button', { name: 'Show more artists' }));
    await flush();
    expect(searches(api).at(-1)).toBe('GET /api/search?q=nig&kind=artists&cursor=a2&limit=50');
    expect(names(screen.getByRole('list', { name: 'Artists' }), 'link')).toEqual([
      'Nightjar',
      'Nightwish',
      'Night Beds',
    ]);
    // The group is complete; the others kept what they had.
    expect(screen.queryByRole('button', { name: 'Show more artists' })).toBeNull();
    expect(names(screen.getByRole('list', { name: 'Songs' }))).toEqual(['Night Ferry']);
    expect(names(screen.getByRole('list', { name: 'Playlists' }), 'link')).toEqual(['Night drive']);

    fireEvent.click(screen.getByRole('button', { name: 'Show more songs' }));
    await flush();
    expect(searches(api).at(-1)).toBe('GET /api/search?q=nig&kind=songs&cursor=s1&limit=50');
    expect(names(screen.getByRole('list', { name: 'Songs' }))).toEqual(['Night Ferry', 'Nightswimming']);
    expect(screen.getByRole('status').textContent).toBe('2 songs, 3 artists, 1 playlists');
    expect(searches(api)).toHaveLength(4);
  });

  it('shows the albums found, linking to their pages, and finds something when only albums match', async () => {
    searchApi(
      answer({
        albums: [
          {
            id: 4,
            name: 'Night Moves',
            artistId: 2,
            artistName: 'Bob Seger',
            year: 1976,
            imgLink: '',
            songCount: 9,
            durationMs: 2_000_000,
            placeholder: false,
          },
        ],
      }),
    );
    renderInApp(<Search />, { route: '/dashboard/songs?q=night%20moves' });
    await flush();
    expect(screen.getByRole('heading', { level: 2, name: 'Albums' })).toBeInTheDocument();
    const album = within(screen.getByRole('list', { name: 'Albums' })).getByRole('link', { name: 'Night Moves' });
    expect(album.getAttribute('href')).toBe('/dashboard/album?id=4');
    expect(album.textContent).toContain('1976 · Bob Seger');
    expect(screen.queryByText(/Nothing matches/)).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('0 songs, 0 artists, 0 playlists, 1 albums');
  });

  it('plays a hit through playFrom with the search source, the songs loaded and the cursor after them', async () => {
    const ferry = makeSong(5, { name: 'Night Ferry' });
    const owl = makeSong(6, { name: 'Night Owl' });
    const swim = makeSong(8, { name: 'Nightswimming' });
    searchApi(answer({ songs: [ferry, owl], nextCursors: { ...noMore, songs: 's1' } }), {
      'songs:s1': answer({ songs: [swim], nextCursors: { ...noMore, songs: 's2' } }),
    });
    const { player } = renderInApp(<Search />, { route: '/dashboard/songs?q=night' });
    const playFrom = vi.spyOn(player.controls, 'playFrom');
    await flush();
    const source = { kind: 'search', q: 'night' };

    fireEvent.click(screen.getByRole('button', { name: 'Play Night Owl' }));
    expect(playFrom).toHaveBeenLastCalledWith({ source, songs: [ferry, owl], nextCursor: 's1', index: 1 });
    expect(player.store.getState().current.name).toBe('Night Owl');

    fireEvent.click(screen.getByRole('button', { name: 'Show more songs' }));
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Play Nightswimming' }));
    expect(playFrom).toHaveBeenLastCalledWith({ source, songs: [ferry, owl, swim], nextCursor: 's2', index: 2 });

    // The header's Play starts at the first hit, the player paging on from the first answer's cursor.
    fireEvent.click(screen.getByRole('button', { name: 'Play songs' }));
    expect(playFrom).toHaveBeenLastCalledWith({ source, songs: [ferry, owl], nextCursor: 's1', index: 0 });
    expect(player.store.getState().current.name).toBe('Night Ferry');

    // The current song's toggle pauses rather than starting over.
    const calls = playFrom.mock.calls.length;
    fireEvent.click(screen.getByRole('button', { name: 'Pause Night Ferry' }));
    expect(playFrom).toHaveBeenCalledTimes(calls);
    expect(player.store.getState().playing).toBe(false);
  });

  it('asks once typing pauses and cancels the request of a text already replaced', async () => {
    const answers: Record<string, (body: SearchResponse) => void> = {};
    const api = mockApi({
      'search.query': (request) =>
        new Promise<SearchResponse>((resolve) => {
          answers[new URL(request.url).searchParams.get('q') ?? ''] = resolve;
        }),
      'songs.list': () => [],
    });
    renderInApp(<Search />, { route: '/dashboard/songs' });
    await flush();
    const box = screen.getByLabelText('Search songs, artists and playlists');
    fireEvent.change(box, { target: { value: 'nig' } });
    await advance(SEARCH_DEBOUNCE_MS);
    expect(searches(api)).toEqual(['GET /api/search?q=nig&limit=20']);
    fireEvent.change(box, { target: { value: 'night' } });
    await advance(SEARCH_DEBOUNCE_MS);
    const [stale, current] = api.requests('search.query');
    expect(stale?.signal.aborted).toBe(true);
    expect(current?.signal.aborted).toBe(false);
    answers.night?.(answer({ songs: [makeSong(5, { name: 'Night Ferry' })] }));
    await flush();
    expect(names(screen.getByRole('list', { name: 'Songs' }))).toEqual(['Night Ferry']);
  });

  it('a like shows on a song loaded with "show more"', async () => {
    const api = mockApi({
      'search.query': (request) =>
        new URL(request.url).searchParams.get('cursor') === 's1'
          ? answer({ songs: [makeSong(8, { name: 'Nightswimming' })] })
          : answer({ songs: [makeSong(5, { name: 'Night Ferry' })], nextCursors: { ...noMore, songs: 's1' } }),
      'likes.like': () => new Response(null, { status: 204 }),
    });
    renderInApp(<Search />, { route: '/dashboard/songs?q=night' });
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Show more songs' }));
    await flush();
    const like = screen.getByRole('button', { name: 'Like Nightswimming' });
    expect(like.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(like);
    await flush();
    expect(api.requests('likes.like').map((request) => request.url)).toEqual(['http://localhost/api/songs/8/like']);
    expect(screen.getByRole('button', { name: 'Like Nightswimming' }).getAttribute('aria-pressed')).toBe('true');
  });
});

describe('the Search page while typing (issue 26)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    document.title = 'Tonearm';
  });

  /** Answers each search when `release(q)` is called, so a test sees the page between the key and the answer. */
  function slowSearch(answers: Record<string, SearchResponse>) {
    const waiting = new Map<string, () => void>();
    const api = mockApi({
      'songs.page': () => makeSongPage([makeSong(1, { name: 'So What' })]),
      'search.query': (request) => {
        const q = new URL(request.url).searchParams.get('q') ?? '';
        return new Promise<Response>((resolve) => {
          waiting.set(q, () => {
            resolve(jsonResponse(answers[q] ?? answer({})));
          });
        });
      },
    });
    const release = async (q: string) => {
      const answerNow = waiting.get(q);
      if (!answerNow) throw new Error(`no search for ${q} is waiting`);
      answerNow();
      await flush();
      await flush();
    };
    return { api, release };
  }

  function SearchTitled() {
    return <SearchPage params={useSongParams()} titled="Search" />;
  }

  const box = () => screen.getByLabelText('Search songs, artists and playlists');
  const songNames = () => names(screen.getByRole('list', { name: 'Songs' }));

  it('is titled "Search", as a heading and in the browser tab', async () => {
    slowSearch({});
    renderInApp(<SearchTitled />, { route: '/dashboard/search' });
    await flush();
    expect(screen.getByRole('heading', { level: 1, name: 'Search' })).toBeInTheDocument();
    expect(document.title).toBe('Search · Tonearm');
    expect(songNames()).toEqual(['So What']);
  });

  it('keeps what is on screen until the next answer arrives, with "Searching…" and no loader meanwhile', async () => {
    const { release } = slowSearch({
      ni: answer({ songs: [makeSong(5, { name: 'Night Ferry' })] }),
      nin: answer({ songs: [makeSong(6, { name: 'Nina' })] }),
    });
    renderInApp(<SearchTitled />, { route: '/dashboard/search' });
    await flush();

    // From the catalogue to the first results: the catalogue stays until they come.
    fireEvent.change(box(), { target: { value: 'ni' } });
    expect(screen.getByText('Searching…')).toBeInTheDocument();
    await advance(SEARCH_DEBOUNCE_MS);
    expect(songNames()).toEqual(['So What']);
    expect(screen.queryByText('Searching')).toBeNull();
    expect(screen.getByText('Searching…')).toBeInTheDocument();
    await release('ni');
    expect(songNames()).toEqual(['Night Ferry']);
    expect(screen.queryByText('Searching…')).toBeNull();
    expect(screen.getByText('Results for “ni”')).toBeInTheDocument();

    // One more letter: the previous results stay, then the new ones replace them.
    fireEvent.change(box(), { target: { value: 'nin' } });
    await advance(SEARCH_DEBOUNCE_MS);
    expect(songNames()).toEqual(['Night Ferry']);
    expect(screen.getByText('Searching…')).toBeInTheDocument();
    expect(screen.queryByText('Searching')).toBeNull();
    await release('nin');
    expect(songNames()).toEqual(['Nina']);
    expect(screen.getByText('Results for “nin”')).toBeInTheDocument();
    expect(screen.queryByText('Searching…')).toBeNull();
  });
});
