import type { SongPage } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SongSource } from '../lib/song-sources.js';
import { errorResponse, makeSong } from '../test/fixtures.js';
import { mockApi, networkFailure, type MockApi } from '../test/mock-api.js';
import { createAudioDeck } from './audio-deck.js';
import { connectAudioEngine, createPlayerRuntime, PRELOAD_LEAD_SECONDS, type QueueStart } from './player-runtime.js';
import { createPlayerStore, initialPlayerState, type PlayerState } from './player-store.js';
import { QUEUE_HISTORY_MAX } from './queue-edits.js';
import { connectQueueFeeder, FETCH_AHEAD_SONGS, FETCH_RETRY_MS, pageToFetch, QUEUE_PAGE_SIZE } from './queue-feeder.js';

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * A paged list of songs 1..total served like the server: cursor `o<n>` means "after the first n", and a seeded
 * shuffle order is the list backwards (different from the plain order, and the same for every page).
 */
function pagedSongs(total: number) {
  return (request: Request): SongPage => {
    const url = new URL(request.url);
    const offset = Number(url.searchParams.get('cursor')?.slice(1) ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? QUEUE_PAGE_SIZE);
    const seed = url.searchParams.get('seed');
    const end = Math.min(total, offset + limit);
    const ids = range(offset + 1, end).map((n) => (seed === null ? n : total + 1 - n));
    return { items: ids.map((id) => makeSong(id)), nextCursor: end < total ? `o${end}` : null, total, seed: null };
  };
}

/** The first `loaded` songs of a list of `total`, chosen at `index`: what a paged list passes to playFrom. */
function startOf(source: SongSource, total: number, loaded: number, index = 0): QueueStart {
  return {
    source,
    songs: range(1, loaded).map((id) => makeSong(id)),
    nextCursor: loaded < total ? `o${loaded}` : null,
    index,
  };
}

/** Lets resolved requests, the feeder's checks and the dispatches they cause settle. */
async function settle(): Promise<void> {
  await vi.advanceTimersByTimeAsync(0);
}

/** A request held open until the test lets it answer. */
function held(answer: (request: Request) => SongPage | Response) {
  const waiting: (() => void)[] = [];
  const handler = (request: Request) =>
    new Promise<SongPage | Response>((resolve) => {
      waiting.push(() => {
        resolve(answer(request));
      });
    });
  return {
    handler,
    release: async () => {
      await settle();
      waiting.splice(0).forEach((go) => {
        go();
      });
      await settle();
    },
  };
}

function cursorsOf(api: MockApi, id: 'songs.page' | 'likes.page' | 'songs.playlistPage'): (string | null)[] {
  return api.requests(id).map((request) => new URL(request.url).searchParams.get('cursor'));
}

function setup() {
  const runtime = createPlayerRuntime(createAudioDeck(), { store: createPlayerStore(initialPlayerState, () => 0) });
  const stop = connectQueueFeeder(runtime.store);
  const state = (): PlayerState => runtime.store.getState();
  /** Plays the current song to its end. */
  const ended = (): void => {
    runtime.store.dispatch({ type: 'ended' });
  };
  return { runtime, controls: runtime.controls, state, ended, stop };
}

const liked: SongSource = { kind: 'liked' };

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('playFrom over a paged source', () => {
  it('plays through page boundaries to the end of the list, each page fetched once', async () => {
    const api = mockApi({ 'likes.page': pagedSongs(120) });
    const { controls, state, ended } = setup();
    controls.playFrom(startOf(liked, 120, 50, 0));
    await settle();
    // Plenty ahead: nothing is fetched yet.
    expect(api.requests('likes.page')).toHaveLength(0);

    const played = [state().current.id];
    while (state().playing) {
      ended();
      await settle();
      if (state().playing) played.push(state().current.id);
    }
    expect(played).toEqual(range(1, 120));
    expect(cursorsOf(api, 'likes.page')).toEqual(['o50', 'o100']);
    // Repeat off: the last song stays current, paused.
    expect(state().current.id).toBe(120);
  });

  it(`fetches when ${FETCH_AHEAD_SONGS} songs are left, once, however often the queue moves meanwhile`, async () => {
    const page = held(pagedSongs(200));
    const api = mockApi({ 'songs.playlistPage': page.handler });
    const { controls, state } = setup();
    controls.playFrom(startOf({ kind: 'playlist', playlistId: 4 }, 200, 50, 38));
    await settle();
    expect(api.requests('songs.playlistPage')).toHaveLength(0);
    controls.next();
    await settle();
    expect(state().queue.length - 1 - state().index).toBe(FETCH_AHEAD_SONGS);
    controls.next();
    controls.next();
    controls.addToQueue(makeSong(900));
    await settle();
    expect(api.requests('songs.playlistPage')).toHaveLength(1);
    expect(api.requests('songs.playlistPage')[0]?.url).toContain('/api/playlists/4/songs?');
    await page.release();
    expect(state().queue).toHaveLength(101);
    expect(state().feed).toMatchObject({ more: true, cursor: 'o100' });
    expect(api.requests('songs.playlistPage')).toHaveLength(1);
  });

  it('Next at the end of the loaded songs waits for the page, and so does a song that ends there', async () => {
    const page = held(pagedSongs(10));
    mockApi({ 'likes.page': page.handler });
    const { controls, state, ended } = setup();
    controls.playFrom(startOf(liked, 10, 3, 1));
    controls.next();
    expect(state().current.id).toBe(3);
    controls.next();
    expect(state().waiting).toBe('next');
    expect(state().current.id).toBe(3);
    expect(state().playing).toBe(true);
    await page.release();
    expect(state().current.id).toBe(4);
    expect(state().waiting).toBeNull();
    expect(state().playing).toBe(true);

    controls.jumpTo(state().queue.length - 1);
    // The source is loaded to its end (10 songs): the last one ends and playback stops, repeat off.
    expect(state().feed?.more).toBe(false);
    ended();
    expect(state().playing).toBe(false);
    expect(state().waiting).toBeNull();
  });

  it('a song that ends at the edge pauses until the page is there, then the next one plays', async () => {
    const page = held(pagedSongs(10));
    mockApi({ 'likes.page': page.handler });
    const { controls, state, ended } = setup();
    controls.playFrom(startOf(liked, 10, 2, 1));
    ended();
    expect(state()).toMatchObject({ waiting: 'ended', playing: false });
    expect(state().current.id).toBe(2);
    await page.release();
    expect(state()).toMatchObject({ waiting: null, playing: true });
    expect(state().current.id).toBe(3);
  });

  it('repeat all goes round: from the first page again once the queue has let go of it', async () => {
    const total = QUEUE_HISTORY_MAX + 30;
    const api = mockApi({ 'likes.page': pagedSongs(total) });
    const { controls, state, ended } = setup();
    controls.setRepeat('all');
    controls.playFrom(startOf(liked, total, 50, 0));
    while (state().current.id !== total) {
      controls.jumpTo(state().queue.length - 1);
      await settle();
    }
    // The queue let go of the first songs; the last one started, so the first page came ahead of its end.
    expect(state().feed).toMatchObject({ partial: true, cursor: 'o50' });
    expect(cursorsOf(api, 'likes.page')).toEqual(['o50', 'o100', null]);
    expect(state().queue.slice(state().index)).toEqual([total, ...range(1, 50)]);
    ended();
    expect(state().current.id).toBe(1);
    ended();
    expect(state().current.id).toBe(2);
    expect(state().playing).toBe(true);
  });

  it('repeat all over a list the queue still holds whole wraps to its first song without a fetch', async () => {
    const api = mockApi({ 'likes.page': pagedSongs(60) });
    const { controls, state, ended } = setup();
    controls.setRepeat('all');
    controls.playFrom(startOf(liked, 60, 50, 45));
    await settle();
    controls.jumpTo(59);
    ended();
    expect(state().current.id).toBe(1);
    expect(cursorsOf(api, 'likes.page')).toEqual(['o50']);
  });

  it('a new playFrom aborts the page still being fetched for the old one, and its answer is dropped', async () => {
    const page = held(pagedSongs(100));
    const api = mockApi({ 'likes.page': page.handler, 'songs.playlistPage': pagedSongs(5) });
    const { controls, state } = setup();
    controls.playFrom(startOf(liked, 100, 5, 0));
    await settle();
    const [first] = api.requests('likes.page');
    controls.playFrom(startOf({ kind: 'playlist', playlistId: 2 }, 5, 5, 0));
    await settle();
    expect(first?.signal.aborted).toBe(true);
    await page.release();
    expect(state().queue).toEqual([1, 2, 3, 4, 5]);
    controls.reset();
    expect(state().feed).toBeNull();
  });

  it('the song after the last loaded one is preloaded once its page is there', async () => {
    mockApi({ 'likes.page': pagedSongs(10) });
    const deck = createAudioDeck();
    const runtime = createPlayerRuntime(deck, { store: createPlayerStore() });
    connectQueueFeeder(runtime.store);
    connectAudioEngine(runtime, vi.fn());
    runtime.controls.playFrom(startOf(liked, 10, 1, 0));
    runtime.controls.seek(180 - PRELOAD_LEAD_SECONDS + 5);
    deck.active.dispatchEvent(new Event('timeupdate'));
    expect(deck.standby.getAttribute('src')).toBeNull();
    await settle();
    expect(deck.standby.getAttribute('src')).toBe('/media/audio/2.mp3');
  });
});

describe('shuffle over a paged source', () => {
  const catalogue: SongSource = { kind: 'catalogue', order: 'newest' };

  it('the catalogue switches to a server shuffle with a new seed, the current song first; off returns to the list', async () => {
    const api = mockApi({ 'songs.page': pagedSongs(300) });
    const { controls, state } = setup();
    controls.playFrom(startOf(catalogue, 300, 50, 4));
    controls.toggleShuffle();
    expect(state().queue).toEqual([5]);
    await settle();
    const [request] = api.requests('songs.page');
    const query = new URL(request?.url ?? '').searchParams;
    expect(query.get('order')).toBe('shuffle');
    expect(query.get('seed')).toMatch(/^\d+$/);
    expect(query.get('cursor')).toBeNull();
    // The shuffled order (300 down to 251 here), without the current song twice.
    expect(state().queue.slice(0, 3)).toEqual([5, 300, 299]);
    expect(state().current.id).toBe(5);

    // Further pages keep the seed.
    controls.jumpTo(state().queue.length - 1);
    await settle();
    const second = new URL(api.requests('songs.page')[1]?.url ?? '').searchParams;
    expect(second.get('seed')).toBe(query.get('seed'));
    expect(second.get('cursor')).toBe('o50');

    // Off: the list order again after the song that played when shuffle went on, and the list's own cursor.
    const playing = state().current.id;
    controls.toggleShuffle();
    expect(state().queue.slice(0, 7)).toEqual([1, 2, 3, 4, 5, playing, 6]);
    expect(state().current.id).toBe(playing);
    expect(state().feed).toMatchObject({ source: catalogue, cursor: 'o50', more: true });
  });

  it('choosing a catalogue song with shuffle on starts a server shuffle after it', async () => {
    const api = mockApi({ 'songs.page': pagedSongs(300) });
    const { controls, state } = setup();
    controls.toggleShuffle();
    controls.playFrom(startOf({ kind: 'catalogue' }, 300, 50, 9));
    expect(state().queue).toEqual([10]);
    await settle();
    expect(new URL(api.requests('songs.page')[0]?.url ?? '').searchParams.get('seed')).toMatch(/^\d+$/);
    expect(state().queue).toHaveLength(51);
    controls.toggleShuffle();
    expect(state().current.id).toBe(10);
    expect(state().queue).toEqual(range(1, 50));
  });

  it('a list without a server shuffle shuffles what is loaded and each page as it comes', async () => {
    const api = mockApi({ 'likes.page': pagedSongs(80) });
    const { controls, state } = setup();
    controls.playFrom(startOf(liked, 80, 10, 2));
    controls.toggleShuffle();
    // The current song first: 9 loaded songs follow it, so the next page is due.
    await settle();
    expect(new URL(api.requests('likes.page')[0]?.url ?? '').searchParams.get('seed')).toBeNull();
    expect(state().queue[0]).toBe(3);
    expect([...state().queue].sort((a, b) => a - b)).toEqual(range(1, 60));
    expect(state().queue.slice(10)).not.toEqual(range(11, 60));
    expect(state().unshuffled?.ids).toEqual(range(1, 60));

    controls.next();
    const current = state().current.id;
    controls.toggleShuffle();
    expect(state().queue).toEqual(range(1, 60));
    expect(state().index).toBe(current - 1);
    expect(state().feed).toMatchObject({ cursor: 'o60', more: true });
  });
});

describe('a page that cannot be fetched', () => {
  it('never stops the music: the queue plays on within what is loaded and the page is tried again later', async () => {
    let failing = true;
    const api = mockApi({
      'likes.page': (request) => (failing ? networkFailure() : pagedSongs(20)(request)),
    });
    const { controls, state, ended } = setup();
    controls.setRepeat('all');
    controls.playFrom(startOf(liked, 20, 3, 0));
    await settle();
    expect(api.requests('likes.page')).toHaveLength(1);
    expect(state().playing).toBe(true);

    ended();
    ended();
    expect(state().current.id).toBe(3);
    // The retry is not due yet: at the edge the loaded songs are the whole list (repeat all: the first again).
    ended();
    await settle();
    expect(state().current.id).toBe(1);
    expect(state().playing).toBe(true);
    expect(state().waiting).toBeNull();

    failing = false;
    await vi.advanceTimersByTimeAsync(FETCH_RETRY_MS);
    expect(api.requests('likes.page')).toHaveLength(2);
    expect(state().queue).toEqual(range(1, 20));
    expect(state().current.id).toBe(1);
  });

  it('an advance waiting for a page that fails goes on within what is loaded', async () => {
    mockApi({ 'likes.page': () => errorResponse(503, 'unavailable', 'Try later') });
    const { controls, state } = setup();
    controls.playFrom(startOf(liked, 20, 2, 1));
    controls.next();
    expect(state().waiting).toBe('next');
    await settle();
    expect(state().waiting).toBeNull();
    expect(state().current.id).toBe(1);
    expect(state().feed?.more).toBe(true);
  });

  it('a list that is gone (404) ends the feed: the loaded songs become a fixed list, never asked again', async () => {
    const api = mockApi({ 'songs.playlistPage': () => errorResponse(404, 'not-found', 'Playlist not found') });
    const { controls, state, ended } = setup();
    controls.playFrom(startOf({ kind: 'playlist', playlistId: 9 }, 20, 2, 0));
    await settle();
    expect(state().feed).toBeNull();
    ended();
    ended();
    expect(state().playing).toBe(false);
    await vi.advanceTimersByTimeAsync(FETCH_RETRY_MS * 4);
    expect(api.requests('songs.playlistPage')).toHaveLength(1);
  });
});

describe('pageToFetch', () => {
  it('asks nothing for a fixed list, the next page near the end, and nothing once a whole list is loaded', () => {
    const store = createPlayerStore();
    expect(pageToFetch(store.getState())).toBeNull();
    store.dispatch({ type: 'playFrom', start: startOf(liked, 100, 50, 39) });
    expect(pageToFetch(store.getState())).toMatchObject({ after: 'o50' });
    store.dispatch({ type: 'playFrom', start: startOf(liked, 50, 50, 49) });
    expect(pageToFetch(store.getState())).toBeNull();
  });
});
