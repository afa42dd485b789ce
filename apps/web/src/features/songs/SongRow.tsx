import type { Song } from '@tonearm/contract';
import { memo, type CSSProperties, type ReactNode } from 'react';
import { formatTime } from '../../lib/format-time.js';
import { usePlayerState } from '../../player/usePlayer.js';
import { Cover } from '../../ui/Cover.js';
import { MenuButton, type MenuItem } from '../../ui/MenuButton.js';
import { LikeButton, PlayToggle } from './SongControls.js';
import type { SongActionOrigin } from './useSongActions.js';
import { useSongMenuItems } from './useSongMenuItems.js';
import '../../ui/buttons.css';
import './SongRow.css';

export interface SongRowProps {
  song: Song;
  /** The list this row belongs to: it becomes the player's queue when the song is chosen. */
  list: readonly Song[];
  /** 1-based position, for the visible number and aria-posinset. */
  position: number;
  origin?: SongActionOrigin | undefined;
  /** Extra entries for this list's menus (e.g. "Remove from downloads"). */
  extraMenuItems?: ((song: Song) => MenuItem[]) | undefined;
  /** Vertical offset inside a virtual list, in px. */
  offset?: number | undefined;
  /** Shown in place of the genre (e.g. the stored size on the Downloaded page). */
  detail?: string | undefined;
  /** A reorder handle before the position (sortable lists), with the row's drag style. */
  handle?: ReactNode;
  style?: CSSProperties | undefined;
}

/**
 * One song of a list: image, name, artist name, play/pause toggle and the three-dots menu. Memoised: a virtual list
 * re-renders on every scroll frame, and rows that stay in view need not.
 */
export const SongRow = memo(function SongRow(props: SongRowProps) {
  const { song, list, position, origin, extraMenuItems, offset, detail, handle, style } = props;
  const isCurrent = usePlayerState((state) => state.current.id === song.id);
  const menuItems = useSongMenuItems(song, origin, extraMenuItems?.(song));
  const seconds = song.durationMs === null ? null : song.durationMs / 1000;
  return (
    <div
      role="listitem"
      aria-label={song.name}
      aria-posinset={position}
      aria-setsize={list.length}
      className={handle ? 'song-row song-row--sortable' : 'song-row'}
      data-current={isCurrent}
      data-sortable-item={handle ? true : undefined}
      style={style ?? (offset === undefined ? undefined : { transform: `translateY(${offset}px)` })}
    >
      {handle}
      <span className="song-row__position" aria-hidden="true">
        {position}
      </span>
      <PlayToggle song={song} list={list} className="play-toggle song-row__play" />
      <Cover src={song.imgLink} width={64} className="song-row__cover" />
      <span className="song-row__title">
        <span className="song-row__name">{song.name}</span>
        <span className="song-row__artist">{song.artistName}</span>
      </span>
      <span className="song-row__genre">{detail ?? song.genre}</span>
      <LikeButton song={song} />
      <span className="song-row__duration">{seconds === null ? '' : formatTime(seconds)}</span>
      <MenuButton label={`More options for ${song.name}`} items={menuItems} />
    </div>
  );
});
