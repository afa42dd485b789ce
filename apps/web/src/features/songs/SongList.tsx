import type { Song } from '@tonearm/contract';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useState, type ReactNode } from 'react';
import type { SongSource } from '../../lib/song-sources.js';
import { UiMessages } from '../../lib/ui-messages.js';
import { isAdmin, useAuth } from '../../shell/auth/useAuth.js';
import { PlusIcon } from '../../ui/icons.js';
import type { MenuItem } from '../../ui/MenuButton.js';
import { useOffsetWithin } from '../../ui/useOffsetWithin.js';
import { useScrollContainer } from '../../ui/useScrollContainer.js';
import { filledColumns } from './song-order.js';
import { SongRow } from './SongRow.js';
import { SongSortHeader, type SongOrdering } from './SongSortHeader.js';
import type { SongActionOrigin } from './useSongActions.js';
import { useSongActions } from './useSongActions.js';
import '../../ui/buttons.css';
import '../../ui/skeleton.css';
import './SongRow.css';
import './SongList.css';

export const SONG_ROW_HEIGHT = 64;
const SKELETON_COUNT = 3;
/** The next page loads once the rendered rows (the view plus the overscan) come this close to the last loaded song. */
export const PREFETCH_ROWS = 20;

/** A list paged by the server: how to load more, and where the rest of the list comes from. */
export interface SongListPaging {
  /** Where the list comes from: playing a row plays on through the rest of it (absent: the loaded songs only). */
  source?: SongSource | undefined;
  /** The cursor of the next page (null when every song is loaded). */
  nextCursor: string | null;
  /** The whole list's size on the server, when known. */
  total?: number | undefined;
  hasNextPage: boolean;
  /** Any page (first, next, or a refetch) is on its way: no second fetch meanwhile. */
  isFetching: boolean;
  /** Loading more gave up (after its retries): the loading row offers Try again instead of retrying on scroll. */
  isFetchNextPageError: boolean;
  fetchNextPage: () => void;
}

export interface SongListProps {
  songs: readonly Song[];
  /** Accessible name of the list, e.g. "Songs" or "Songs by Nina Simone". */
  label: string;
  /** 'loading' and 'error' keep the skeletons up with a status line; 'ready' with no songs is an empty list. */
  status?: ListStatus;
  origin?: SongActionOrigin;
  /** Shown instead of the skeletons when the list is known to be empty (e.g. no downloads yet). */
  emptyState?: ReactNode;
  /** Offer the admin add-song tile. */
  allowAdd?: boolean;
  extraMenuItems?: (song: Song) => MenuItem[];
  /** A per-song text shown in place of the genre. */
  detail?: (song: Song) => string | undefined;
  /** Offered after loading gave up. */
  onRetry?: () => void;
  /** A paged list: the next page loads as the user scrolls near the end. */
  paging?: SongListPaging | undefined;
  /** Issue 26: column headers and "Sort by" over the rows; the songs come in that order already. */
  ordering?: SongOrdering | undefined;
}

export type ListStatus = 'loading' | 'error' | 'ready';

/** Maps a TanStack query to the list's status. */
export function listStatus(query: { isPending: boolean; isError: boolean }): ListStatus {
  if (query.isError) return 'error';
  return query.isPending ? 'loading' : 'ready';
}

/** SPEC §2: an empty list shows three skeleton placeholders. */
export function SongSkeletons({ status, onRetry }: { status: ListStatus; onRetry?: (() => void) | undefined }) {
  return (
    <div className="song-skeletons">
      <div aria-hidden="true">
        {Array.from({ length: SKELETON_COUNT }, (_, i) => (
          <div key={i} className="song-row song-row--skeleton" data-testid="song-skeleton">
            <span className="skeleton skeleton--cover" />
            <span className="skeleton-lines">
              <span className="skeleton skeleton--line" />
              <span className="skeleton skeleton--line skeleton--short" />
            </span>
          </div>
        ))}
      </div>
      {status === 'loading' && (
        <span className="visually-hidden" role="status">
          Loading songs
        </span>
      )}
      {status === 'ready' && <p className="song-skeletons__note">{UiMessages.emptySongs}</p>}
      {status === 'error' && (
        <p className="song-skeletons__note">
          {UiMessages.songsUnavailable}{' '}
          {onRetry && (
            <button type="button" className="link-button" onClick={onRetry}>
              Try again
            </button>
          )}
        </p>
      )}
    </div>
  );
}

/** The row after the last loaded song while the list has more: a placeholder, or Try again once loading gave up. */
function MoreSongsRow({ paging }: { paging: SongListPaging }) {
  if (paging.isFetchNextPageError && !paging.isFetching) {
    return (
      <p className="song-skeletons__note">
        {UiMessages.songsUnavailable}{' '}
        <button type="button" className="link-button" onClick={paging.fetchNextPage}>
          Try again
        </button>
      </p>
    );
  }
  return (
    <div className="song-row song-row--skeleton" data-testid="song-loading-row">
      <span className="skeleton skeleton--cover" aria-hidden="true" />
      <span className="skeleton-lines" aria-hidden="true">
        <span className="skeleton skeleton--line" />
        <span className="skeleton skeleton--line skeleton--short" />
      </span>
      <span className="visually-hidden" role="status">
        Loading more songs
      </span>
    </div>
  );
}

/**
 * Asks for the next page when the last rendered row is within PREFETCH_ROWS of the end of what is loaded (at once
 * when a filtered list shows few or none of the loaded songs), one page at a time.
 */
function useLoadMore(paging: SongListPaging | undefined, lastRendered: number, loaded: number): void {
  const nearEnd = lastRendered >= loaded - 1 - PREFETCH_ROWS;
  useEffect(() => {
    if (!paging || !nearEnd) return;
    if (paging.hasNextPage && !paging.isFetching && !paging.isFetchNextPageError) paging.fetchNextPage();
  }, [paging, nearEnd]);
}

function AddSongTile({ origin }: { origin: SongActionOrigin | undefined }) {
  const actions = useSongActions();
  return (
    <button type="button" className="song-row song-row--add" aria-label="Add song" onClick={() => actions.add(origin)}>
      <span className="song-row--add__icon">
        <PlusIcon />
      </span>
      <span className="song-row__title">
        <span className="song-row__name">Add song</span>
        <span className="song-row__artist">Upload audio and a cover to the catalogue</span>
      </span>
    </button>
  );
}

/**
 * A virtualised song list: only the rows in view (plus a margin) exist in the DOM, so 10 000 songs scroll smoothly.
 * With `paging` it is the loaded part of a longer list: the next page loads as the user scrolls near the end.
 */
export function SongList(props: SongListProps) {
  const {
    songs,
    label,
    status = 'ready',
    origin,
    emptyState,
    allowAdd = false,
    extraMenuItems,
    detail,
    onRetry,
    paging,
    ordering,
  } = props;
  const { user } = useAuth();
  const scrollElement = useScrollContainer();
  const [listElement, setListElement] = useState<HTMLDivElement | null>(null);
  const scrollMargin = useOffsetWithin(listElement, scrollElement);

  // The compiler cannot memoise around TanStack Virtual; this component re-renders on scroll by design.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: songs.length,
    getScrollElement: () => scrollElement,
    estimateSize: () => SONG_ROW_HEIGHT,
    overscan: 10,
    scrollMargin,
    initialRect: { width: 960, height: 900 },
    getItemKey: (index) => songs[index]?.id ?? index,
  });

  const virtualItems = virtualizer.getVirtualItems();
  useLoadMore(paging, virtualItems.at(-1)?.index ?? -1, songs.length);

  const hasMore = paging?.hasNextPage === true;
  const showEmpty = songs.length === 0;
  // A filtered list may show nothing yet while further pages load.
  const emptyStatus = hasMore && status === 'ready' ? 'loading' : status;
  const source = paging?.source;
  const nextCursor = paging?.nextCursor ?? null;
  const columns = filledColumns(songs);
  return (
    <div className={columns.album ? 'song-list' : 'song-list song-list--no-album'}>
      {allowAdd && isAdmin(user) && <AddSongTile origin={origin} />}
      {ordering && !showEmpty && <SongSortHeader ordering={ordering} label={label} columns={columns} />}
      {showEmpty &&
        (emptyState && emptyStatus === 'ready' ? emptyState : <SongSkeletons status={emptyStatus} onRetry={onRetry} />)}
      {!showEmpty && (
        <div
          ref={setListElement}
          role="list"
          aria-label={label}
          className="song-list__rows"
          style={{ height: virtualizer.getTotalSize() }}
        >
          {virtualItems.map((item) => {
            const song = songs[item.index];
            if (!song) return null;
            return (
              <SongRow
                key={item.key}
                song={song}
                list={songs}
                source={source}
                nextCursor={nextCursor}
                position={item.index + 1}
                setSize={paging?.total ?? songs.length}
                origin={origin}
                extraMenuItems={extraMenuItems}
                offset={item.start - scrollMargin}
                detail={detail?.(song)}
              />
            );
          })}
        </div>
      )}
      {!showEmpty && paging && hasMore && <MoreSongsRow paging={paging} />}
    </div>
  );
}
