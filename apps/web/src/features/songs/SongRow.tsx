import { UNKNOWN_ALBUM, type Song } from '@tonearm/contract';
import { memo, type CSSProperties, type ReactNode } from 'react';
import { Link } from 'react-router';
import { formatTime } from '../../lib/format-time.js';
import { Paths } from '../../lib/paths.js';
import type { SongSource } from '../../lib/song-sources.js';
import { usePlayerState } from '../../player/usePlayer.js';
import { Cover } from '../../ui/Cover.js';
import { MenuButton, type MenuItem } from '../../ui/MenuButton.js';
import { playsOf } from './song-order.js';
import { SongArtists } from './SongArtists.js';
import { LikeButton, PlayToggle } from './SongControls.js';
import type { SongActionOrigin } from './useSongActions.js';
import { useSongMenuItems } from './useSongMenuItems.js';
import '../../ui/buttons.css';
import './SongRow.css';

export interface SongRowProps {
  song: Song;
  /** The list this row belongs to (its loaded songs): it becomes the player's queue when the song is chosen. */
  list: readonly Song[];
  /** Where a paged list comes from: the queue plays on through the rest of it. */
  source?: SongSource | undefined;
  /** The cursor of the paged list's next page. */
  nextCursor?: string | null | undefined;
  /** 1-based position, for the visible number and aria-posinset. */
  position: number;
  /** The visible number when it is not the position (an album's track number). */
  number?: number | undefined;
  /** Leaves out the album column (the album's own page). */
  hideAlbum?: boolean | undefined;
  /** The whole list's size for aria-setsize (default: the songs in `list`). */
  setSize?: number | undefined;
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
  const {
    song,
    list,
    source,
    nextCursor,
    position,
    number,
    hideAlbum = false,
    setSize,
    origin,
    extraMenuItems,
    offset,
    detail,
    handle,
    style,
  } = props;
  const isCurrent = usePlayerState((state) => state.current.id === song.id);
  const menuItems = useSongMenuItems(song, origin, extraMenuItems?.(song));
  const seconds = song.durationMs === null ? null : song.durationMs / 1000;
  return (
    <div
      role="listitem"
      aria-label={song.name}
      aria-posinset={position}
      aria-setsize={setSize ?? list.length}
      className={['song-row', handle ? 'song-row--sortable' : null, hideAlbum ? 'song-row--album-page' : null]
        .filter((name) => name !== null)
        .join(' ')}
      data-current={isCurrent}
      data-sortable-item={handle ? true : undefined}
      style={style ?? (offset === undefined ? undefined : { transform: `translateY(${offset}px)` })}
    >
      {handle}
      <span className="song-row__position" aria-hidden="true">
        {number ?? position}
      </span>
      <PlayToggle
        song={song}
        list={list}
        source={source}
        nextCursor={nextCursor}
        className="play-toggle song-row__play"
      />
      <Cover src={song.imgLink} width={64} className="song-row__cover" />
      <span className="song-row__title">
        <span className="song-row__name">{song.name}</span>
        <SongArtists song={song} className="song-row__artist" />
      </span>
      {!hideAlbum && <AlbumCell song={song} />}
      <span className="song-row__genre" title={detail === undefined ? (song.genreTag ?? undefined) : undefined}>
        {detail ?? song.genre}
      </span>
      <span className="song-row__plays" title={`Played ${playsOf(song)} times`}>
        {playsOf(song)}
      </span>
      <LikeButton song={song} />
      <span className="song-row__duration">{seconds === null ? '' : formatTime(seconds)}</span>
      <MenuButton label={`More options for ${song.name}`} items={menuItems} />
    </div>
  );
});

/**
 * Issue 12: the song's album and track number, on wide screens only (SongRow.css); empty for songs stored by an older
 * web app (recent, downloaded), which lack the fields. A song without an album of its own is on its artist's "Unknown
 * album" (issue 25), shown muted: it leads to the artist's other such songs.
 */
function AlbumCell({ song }: { song: Song }) {
  const { albumId, albumName, trackNumber } = song as Partial<Song>;
  const placeholder = albumName === UNKNOWN_ALBUM;
  return (
    <span className="song-row__album">
      {typeof albumId === 'number' && typeof albumName === 'string' && (
        <>
          <Link
            to={`${Paths.album}?id=${albumId}`}
            className={placeholder ? 'song-row__album-link song-row__album-link--placeholder' : 'song-row__album-link'}
          >
            {albumName}
          </Link>
          {typeof trackNumber === 'number' && <span className="song-row__track">Track {trackNumber}</span>}
        </>
      )}
    </span>
  );
}
