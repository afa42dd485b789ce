import type { Song } from '@tonearm/contract';
import { ArrowDownIcon, ArrowUpIcon, DragHandleIcon } from '../../ui/icons.js';
import type { MenuItem } from '../../ui/MenuButton.js';
import { useSortable } from '../../ui/useSortable.js';
import { SongRow } from '../songs/SongRow.js';
import '../../ui/buttons.css';
import '../../ui/drag-handle.css';
import '../songs/SongList.css';
import './SortableSongList.css';

export interface SortableSongListProps {
  songs: readonly Song[];
  label: string;
  onMove: (from: number, to: number) => void;
  extraMenuItems?: (song: Song) => MenuItem[];
}

/**
 * A playlist's songs for its owner (or an admin): every row has a handle to drag, or to focus and move with the arrow
 * keys, and its menu offers Move up / Move down. Not virtualised, so rows can move freely (playlists are short).
 */
export function SortableSongList({ songs, label, onMove, extraMenuItems }: SortableSongListProps) {
  const sortable = useSortable({
    keys: songs.map((song) => song.id),
    onMove,
    describeMove: (from, to) => `${songs[from]?.name ?? 'Song'} moved to position ${to + 1} of ${songs.length}`,
  });

  const moveItems = (song: Song, index: number): MenuItem[] => [
    ...(index > 0
      ? [{ label: 'Move up', icon: <ArrowUpIcon size={18} />, onSelect: () => onMove(index, index - 1) }]
      : []),
    ...(index < songs.length - 1
      ? [{ label: 'Move down', icon: <ArrowDownIcon size={18} />, onSelect: () => onMove(index, index + 1) }]
      : []),
    ...(extraMenuItems?.(song) ?? []),
  ];

  return (
    <div className="song-list">
      <div role="list" aria-label={label} className="song-list__rows song-list__rows--static">
        {songs.map((song, index) => (
          <SongRow
            key={song.id}
            song={song}
            list={songs}
            position={index + 1}
            style={sortable.itemStyle(index)}
            extraMenuItems={() => moveItems(song, index)}
            handle={
              <button
                type="button"
                className="icon-button drag-handle"
                aria-label={`Reorder ${song.name}`}
                aria-roledescription="sortable handle"
                title="Drag, or press the up and down arrow keys, to reorder"
                data-dragging={sortable.draggingIndex === index}
                {...sortable.handleProps(index)}
              >
                <DragHandleIcon size={18} />
              </button>
            }
          />
        ))}
      </div>
      <p className="visually-hidden" role="status">
        {sortable.announcement}
      </p>
    </div>
  );
}
