import { PAGE_LIMIT_DEFAULT, type SongPage } from '@tonearm/contract';
import { isApiError } from '../lib/api-client.js';
import { fetchSongPage, type SongPageRequest, type SongSource } from '../lib/song-sources.js';
import type { PlayerState, PlayerStore } from './player-store.js';

/**
 * The next page is fetched once this few songs (or fewer) are left after the current one. At an average song
 * length that is half an hour ahead, so the song after the current one is known long before the engine preloads it
 * (PRELOAD_LEAD_SECONDS before the end).
 */
export const FETCH_AHEAD_SONGS = 10;
/** Songs per fetched page. */
export const QUEUE_PAGE_SIZE = PAGE_LIMIT_DEFAULT;
/** A page that could not be fetched is tried again after this long, doubling up to FETCH_RETRY_MAX_MS. */
export const FETCH_RETRY_MS = 5000;
export const FETCH_RETRY_MAX_MS = 60_000;

/** One page the queue needs: of which feed, and after which cursor (null: the first page). */
export interface PageRequest {
  feedKey: number;
  after: string | null;
}

/**
 * The page the queue needs now, if any: the feed's next one when few songs are left or an advance waits for it.
 * Once the source is loaded to its end and the queue has let go of its first songs, going round again needs the
 * first page: for a waiting advance, or under repeat all as soon as the last song starts (so it can be preloaded).
 */
export function pageToFetch(state: PlayerState): PageRequest | null {
  const { feed, feedKey, waiting } = state;
  if (!feed) return null;
  const left = state.queue.length - 1 - state.index;
  if (feed.more) return left <= FETCH_AHEAD_SONGS || waiting ? { feedKey, after: feed.cursor } : null;
  const again = waiting !== null || (left === 0 && state.repeat === 'all');
  return feed.partial && again ? { feedKey, after: null } : null;
}

/** A 4xx answer will not change by asking again (the list is gone, private now, the cursor foreign): the feed ends. */
function isFinal(error: unknown): boolean {
  return isApiError(error) && error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429;
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

export type FetchPage = (source: SongSource, request: SongPageRequest) => Promise<SongPage>;

/**
 * Keeps the queue fed: fetches the page it needs (pageToFetch), one at a time, and hands it to the store. A new
 * feed (playFrom, shuffle, reset) aborts the fetch of the old one. A failure never stops the music: a waiting
 * advance goes on within the loaded songs, and the page is tried again later (FETCH_RETRY_MS, doubling); while a
 * retry is pending, an advance that reaches the end does not wait for it. Returns a disconnect function.
 */
export function connectQueueFeeder(store: PlayerStore, fetchPage: FetchPage = fetchSongPage): () => void {
  let inFlight: { feedKey: number; controller: AbortController } | null = null;
  let retry: { feedKey: number; delay: number; timer: ReturnType<typeof setTimeout> | null } | null = null;
  let scheduled = false;
  let stopped = false;

  const clearRetry = (): void => {
    if (retry?.timer) clearTimeout(retry.timer);
    retry = null;
  };

  const failed = (feedKey: number, error: unknown): void => {
    const final = isFinal(error);
    if (!final) {
      const delay = retry?.feedKey === feedKey ? Math.min(retry.delay * 2, FETCH_RETRY_MAX_MS) : FETCH_RETRY_MS;
      clearRetry();
      retry = { feedKey, delay, timer: setTimeout(retryNow, delay) };
    }
    store.dispatch({ type: 'pageFailed', feedKey, final });
  };

  const start = (state: PlayerState, request: PageRequest): void => {
    const { feed } = state;
    if (!feed) return;
    const controller = new AbortController();
    inFlight = { feedKey: request.feedKey, controller };
    const options = { cursor: request.after, limit: QUEUE_PAGE_SIZE, signal: controller.signal };
    fetchPage(feed.source, options).then(
      (page) => {
        if (controller.signal.aborted) return;
        inFlight = null;
        clearRetry();
        store.dispatch({ type: 'pageLoaded', feedKey: request.feedKey, after: request.after, page });
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbort(error)) return;
        inFlight = null;
        failed(request.feedKey, error);
      },
    );
  };

  const check = (): void => {
    scheduled = false;
    if (stopped) return;
    const state = store.getState();
    if (inFlight && inFlight.feedKey !== state.feedKey) {
      inFlight.controller.abort();
      inFlight = null;
    }
    if (retry && retry.feedKey !== state.feedKey) clearRetry();
    const request = pageToFetch(state);
    if (!request || inFlight) return;
    if (retry?.timer) {
      // Not before the retry is due; an advance waiting meanwhile goes on within the loaded songs.
      if (state.waiting) store.dispatch({ type: 'pageFailed', feedKey: state.feedKey, final: false });
      return;
    }
    start(state, request);
  };

  // Checks run after the store's listeners, never inside a dispatch.
  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(check);
  };

  function retryNow(): void {
    if (retry) retry.timer = null;
    schedule();
  }

  const unsubscribe = store.subscribe(schedule);
  schedule();
  return () => {
    unsubscribe();
    clearRetry();
    inFlight?.controller.abort();
    inFlight = null;
    stopped = true;
  };
}
