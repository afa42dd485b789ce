import type { Song } from '@tonearm/contract';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import { upcomingSongs } from '../../player/player-store.js';
import { usePlayerControls, usePlayerState } from '../../player/usePlayer.js';
import { isWelcomeSong } from '../../player/welcome-song.js';
import { Cover } from '../../ui/Cover.js';
import { ArrowDownIcon, ArrowUpIcon, CloseIcon, DragHandleIcon, PlayIcon } from '../../ui/icons.js';
import { useOffsetWithin } from '../../ui/useOffsetWithin.js';
import { useSortable, type HandleProps } from '../../ui/useSortable.js';
import { LikeButton } from '../songs/SongControls.js';
import { PlayModeButtons } from './PlayerControls.js';
import { useRevealedActions } from './useRevealedActions.js';
import '../../ui/badge.css';
import '../../ui/buttons.css';
import '../../ui/drag-handle.css';
import './QueuePanel.css';

/** Up to this many songs after the current one are listed plainly; a longer queue is virtualised. */
export const QUEUE_PLAIN_MAX = 100;
/** The height of one queued row in the virtualised list. */
export const QUEUE_ROW_HEIGHT = 56;

interface Upcoming {
  song: Song;
  /** The song's place in the queue. */
  index: number;
}

function QueueSong({ song }: { song: Song }) {
  return (
    <>
      <Cover src={song.imgLink} width={64} className="queue-item__cover" />
      <span className="queue-item__text">
        <span className="queue-item__name">{song.name}</span>
        <span className="queue-item__artist">{song.artistName}</span>
      </span>
    </>
  );
}

interface QueueRowProps {
  entry: Upcoming;
  /** The queue places of the songs listed above and below it (null at either end): the arrows swap with them. */
  above: number | null;
  below: number | null;
  handle: HandleProps;
  dragging: boolean;
  style: CSSProperties;
}

/**
 * One song in "Next up": drag handle, song, then play, move up, move down and remove. The four actions show on hover,
 * on keyboard focus inside the row and on a long-press, so the song's title has the row's width the rest of the time.
 */
function QueueRow({ entry, above, below, handle, dragging, style }: QueueRowProps) {
  const controls = usePlayerControls();
  const actions = useRevealedActions();
  const { song, index } = entry;
  const moves = [
    { label: 'up', target: above, Icon: ArrowUpIcon },
    { label: 'down', target: below, Icon: ArrowDownIcon },
  ];
  return (
    <li
      aria-label={song.name}
      className="queue-item"
      data-sortable-item
      data-dragging={dragging}
      style={style}
      {...actions.rowProps}
    >
      <button
        type="button"
        className="icon-button drag-handle"
        aria-label={`Reorder ${song.name}`}
        aria-roledescription="sortable handle"
        title="Drag, or use the arrow keys, to reorder"
        {...handle}
      >
        <DragHandleIcon size={18} />
      </button>
      <QueueSong song={song} />
      <span className="queue-item__actions">
        <button
          type="button"
          className="icon-button"
          aria-label={`Play ${song.name}`}
          onClick={() => {
            controls.jumpTo(index);
          }}
        >
          <PlayIcon size={16} />
        </button>
        {moves.map(({ label, target, Icon }) => (
          <button
            key={label}
            type="button"
            className="icon-button"
            aria-label={`Move ${song.name} ${label}`}
            disabled={target === null}
            onClick={() => {
              if (target !== null) controls.moveInQueue(index, target);
            }}
          >
            <Icon size={16} />
          </button>
        ))}
        <button
          type="button"
          className="icon-button"
          aria-label={`Remove ${song.name} from queue`}
          onClick={() => {
            controls.removeFromQueue(index);
          }}
        >
          <CloseIcon size={16} />
        </button>
      </span>
    </li>
  );
}

/**
 * The songs loaded after the current one, with their edits. Past QUEUE_PLAIN_MAX only the rows in view of
 * `scrollElement` (plus a margin) exist.
 */
function UpcomingList({
  upcoming,
  scrollElement,
}: {
  upcoming: readonly Upcoming[];
  scrollElement: HTMLElement | null;
}) {
  const controls = usePlayerControls();
  const [listElement, setListElement] = useState<HTMLOListElement | null>(null);
  const scrollMargin = useOffsetWithin(listElement, scrollElement);
  const sortable = useSortable({
    keys: upcoming.map(({ song }) => song.id),
    onMove: (from, to) => {
      const a = upcoming[from];
      const b = upcoming[to];
      if (a && b) controls.moveInQueue(a.index, b.index);
    },
    describeMove: (from, to) =>
      `${upcoming[from]?.song.name ?? 'Song'} moved to position ${to + 1} of ${upcoming.length} in the queue`,
  });
  const virtual = upcoming.length > QUEUE_PLAIN_MAX;
  // The compiler cannot memoise around TanStack Virtual; this component re-renders on scroll by design.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    enabled: virtual,
    count: upcoming.length,
    getScrollElement: () => scrollElement,
    estimateSize: () => QUEUE_ROW_HEIGHT,
    overscan: 8,
    scrollMargin,
    initialRect: { width: 400, height: 800 },
    getItemKey: (position) => upcoming[position]?.song.id ?? position,
  });
  const rows = virtual
    ? virtualizer.getVirtualItems().map((item) => ({ position: item.index, top: item.start - scrollMargin }))
    : upcoming.map((_, position) => ({ position, top: undefined }));

  return (
    <>
      <ol
        ref={setListElement}
        className={virtual ? 'queue__list queue__list--virtual' : 'queue__list'}
        aria-label="Next up"
        style={virtual ? { height: virtualizer.getTotalSize() } : undefined}
      >
        {rows.map(({ position, top }) => {
          const entry = upcoming[position];
          if (!entry) return null;
          const placed =
            top === undefined ? undefined : ({ position: 'absolute', top, height: QUEUE_ROW_HEIGHT } as const);
          return (
            <QueueRow
              key={entry.song.id}
              entry={entry}
              above={upcoming[position - 1]?.index ?? null}
              below={upcoming[position + 1]?.index ?? null}
              handle={sortable.handleProps(position)}
              dragging={sortable.draggingIndex === position}
              style={{ ...sortable.itemStyle(position), ...placed }}
            />
          );
        })}
      </ol>
      <p className="visually-hidden" role="status">
        {sortable.announcement}
      </p>
    </>
  );
}

/** "Next up": the loaded songs after the current one, and a note when the list goes on past them. */
export function NextUp({ scrollElement }: { scrollElement: HTMLElement | null }) {
  const queue = usePlayerState((state) => state.queue);
  const index = usePlayerState((state) => state.index);
  const songs = usePlayerState((state) => state.songs);
  const more = usePlayerState((state) => state.feed?.more ?? false);
  const upcoming = upcomingSongs({ queue, index, songs });

  if (upcoming.length === 0 && !more) {
    return <p className="queue__empty">Nothing queued. Use “Add to queue” or “Play next” in a song’s menu.</p>;
  }
  return (
    <>
      {upcoming.length > 0 && <UpcomingList upcoming={upcoming} scrollElement={scrollElement} />}
      {more && <p className="queue__more">More songs from this list follow as the queue plays.</p>}
    </>
  );
}

export interface QueuePanelProps {
  id: string;
  onClose: () => void;
}

/** The queue view: what plays now and next, with play-next/add/remove/reorder edits and the play modes. */
export function QueuePanel({ id, onClose }: QueuePanelProps) {
  const current = usePlayerState((state) => state.current);
  const repeat = usePlayerState((state) => state.repeat);
  const shuffle = usePlayerState((state) => state.shuffle);
  const closeRef = useRef<HTMLButtonElement>(null);
  const [body, setBody] = useState<HTMLDivElement | null>(null);
  useEffect(() => {
    closeRef.current?.focus();
  }, []);
  const onKeyDown = (event: KeyboardEvent<HTMLElement>): void => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
    }
  };
  return (
    <section id={id} className="queue" aria-label="Queue" onKeyDown={onKeyDown}>
      <header className="queue__header">
        <h2 className="queue__title">Queue</h2>
        <span className="queue__modes">
          <PlayModeButtons />
        </span>
        <button ref={closeRef} type="button" className="icon-button" aria-label="Close queue" onClick={onClose}>
          <CloseIcon />
        </button>
      </header>
      <div ref={setBody} className="queue__body">
        <h3 className="queue__heading">Now playing</h3>
        <div className="queue-item queue-item--current" aria-label={`Now playing: ${current.name}`} role="group">
          <QueueSong song={current} />
          {/* The bar's like button has no room on a phone; here it always fits. */}
          {!isWelcomeSong(current) && <LikeButton song={current} />}
        </div>
        <h3 className="queue__heading">
          Next up
          {shuffle && <span className="badge badge--accent">Shuffled</span>}
          {repeat !== 'off' && <span className="badge">Repeat {repeat}</span>}
        </h3>
        <NextUp scrollElement={body} />
      </div>
    </section>
  );
}
