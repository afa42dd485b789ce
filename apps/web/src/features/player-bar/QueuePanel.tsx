import type { Song } from '@tonearm/contract';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { upcomingSongs } from '../../player/player-store.js';
import { usePlayerControls, usePlayerState } from '../../player/usePlayer.js';
import { isWelcomeSong } from '../../player/welcome-song.js';
import { Cover } from '../../ui/Cover.js';
import { ArrowDownIcon, ArrowUpIcon, CloseIcon, DragHandleIcon, PlayIcon } from '../../ui/icons.js';
import { useSortable } from '../../ui/useSortable.js';
import { LikeButton } from '../songs/SongControls.js';
import { PlayModeButtons } from './PlayerBar.js';
import '../../ui/badge.css';
import '../../ui/buttons.css';
import '../../ui/drag-handle.css';
import './QueuePanel.css';

/** Rendering 10 000 queued songs helps nobody; the view lists the next ones and counts the rest. */
export const QUEUE_VIEW_MAX = 100;

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

function NextUp() {
  const queue = usePlayerState((state) => state.queue);
  const index = usePlayerState((state) => state.index);
  const controls = usePlayerControls();
  const upcoming = upcomingSongs({ queue, index });
  const shown = upcoming.slice(0, QUEUE_VIEW_MAX);
  const sortable = useSortable({
    keys: shown.map(({ song }) => song.id),
    onMove: (from, to) => {
      const a = shown[from];
      const b = shown[to];
      if (a && b) controls.moveInQueue(a.index, b.index);
    },
    describeMove: (from, to) =>
      `${shown[from]?.song.name ?? 'Song'} moved to position ${to + 1} of ${shown.length} in the queue`,
  });

  if (upcoming.length === 0) {
    return <p className="queue__empty">Nothing queued. Use “Add to queue” or “Play next” in a song’s menu.</p>;
  }
  return (
    <>
      <ol className="queue__list" aria-label="Next up">
        {shown.map(({ song, index: queueIndex }, position) => (
          <li
            key={song.id}
            aria-label={song.name}
            className="queue-item"
            data-sortable-item
            data-dragging={sortable.draggingIndex === position}
            style={sortable.itemStyle(position)}
          >
            <button
              type="button"
              className="icon-button drag-handle"
              aria-label={`Reorder ${song.name}`}
              aria-roledescription="sortable handle"
              title="Drag, or use the arrow keys, to reorder"
              {...sortable.handleProps(position)}
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
                  controls.jumpTo(queueIndex);
                }}
              >
                <PlayIcon size={16} />
              </button>
              <button
                type="button"
                className="icon-button"
                aria-label={`Move ${song.name} up`}
                disabled={position === 0}
                onClick={() => {
                  const above = shown[position - 1];
                  if (above) controls.moveInQueue(queueIndex, above.index);
                }}
              >
                <ArrowUpIcon size={16} />
              </button>
              <button
                type="button"
                className="icon-button"
                aria-label={`Move ${song.name} down`}
                disabled={position === shown.length - 1}
                onClick={() => {
                  const below = shown[position + 1];
                  if (below) controls.moveInQueue(queueIndex, below.index);
                }}
              >
                <ArrowDownIcon size={16} />
              </button>
              <button
                type="button"
                className="icon-button"
                aria-label={`Remove ${song.name} from queue`}
                onClick={() => {
                  controls.removeFromQueue(queueIndex);
                }}
              >
                <CloseIcon size={16} />
              </button>
            </span>
          </li>
        ))}
      </ol>
      {upcoming.length > shown.length && (
        <p className="queue__more">and {(upcoming.length - shown.length).toLocaleString()} more</p>
      )}
      <p className="visually-hidden" role="status">
        {sortable.announcement}
      </p>
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
      <div className="queue__body">
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
        <NextUp />
      </div>
    </section>
  );
}
