import type { Song } from '@tonearm/contract';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useState, type ReactNode } from 'react';
import { UiMessages } from '../../lib/ui-messages.js';
import { isAdmin, useAuth } from '../../shell/auth/useAuth.js';
import { PlusIcon } from '../../ui/icons.js';
import type { MenuItem } from '../../ui/MenuButton.js';
import { useOffsetWithin } from '../../ui/useOffsetWithin.js';
import { useScrollContainer } from '../../ui/useScrollContainer.js';
import { SongRow } from './SongRow.js';
import type { SongActionOrigin } from './useSongActions.js';
import { useSongActions } from './useSongActions.js';
import '../../ui/buttons.css';
import '../../ui/skeleton.css';
import './SongRow.css';
import './SongList.css';

export const SONG_ROW_HEIGHT = 64;
const SKELETON_COUNT = 3;

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

/** A virtualised song list: only the rows in view (plus a margin) exist in the DOM, so 10 000 songs scroll smoothly. */
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

  const showEmpty = songs.length === 0;
  return (
    <div className="song-list">
      {allowAdd && isAdmin(user) && <AddSongTile origin={origin} />}
      {showEmpty &&
        (emptyState && status === 'ready' ? emptyState : <SongSkeletons status={status} onRetry={onRetry} />)}
      {!showEmpty && (
        <div
          ref={setListElement}
          role="list"
          aria-label={label}
          className="song-list__rows"
          style={{ height: virtualizer.getTotalSize() }}
        >
          {virtualizer.getVirtualItems().map((item) => {
            const song = songs[item.index];
            if (!song) return null;
            return (
              <SongRow
                key={item.key}
                song={song}
                list={songs}
                position={item.index + 1}
                origin={origin}
                extraMenuItems={extraMenuItems}
                offset={item.start - scrollMargin}
                detail={detail?.(song)}
              />
            );
          })}
        </div>
      )}
    </div>
  );
}
