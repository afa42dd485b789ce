import { SONG_SORT_COLUMNS, type SongSortColumn, type SortDirection } from '@tonearm/contract';
import {
  COLUMN_LABELS,
  LIST_ORDER,
  LIST_ORDER_LABELS,
  toggled,
  type SongListKind,
  type SongOrder,
} from './song-order.js';
import '../../ui/forms.css';
import './SongRow.css';
import './SongSortHeader.css';

/** What a list offers of ordering: its kind (the label of its own order), the order, and the change. */
export interface SongOrdering {
  kind: SongListKind;
  order: SongOrder;
  onChange: (order: SongOrder) => void;
}

const DIRECTION_WORDS: Record<SongSortColumn, Record<SortDirection, string>> = {
  title: { asc: 'A to Z', desc: 'Z to A' },
  artist: { asc: 'A to Z', desc: 'Z to A' },
  album: { asc: 'A to Z', desc: 'Z to A' },
  genre: { asc: 'A to Z', desc: 'Z to A' },
  added: { asc: 'oldest first', desc: 'newest first' },
  duration: { asc: 'shortest first', desc: 'longest first' },
  plays: { asc: 'least played first', desc: 'most played first' },
  rating: { asc: 'lowest rated first', desc: 'highest rated first' },
};

const valueOf = (order: SongOrder): string => (order.by === 'list' ? 'list' : `${order.by}:${order.direction}`);

function orderOf(value: string): SongOrder {
  const [by, direction] = value.split(':');
  const column = SONG_SORT_COLUMNS.find((known) => known === by);
  if (column === undefined) return LIST_ORDER;
  return { by: column, direction: direction === 'desc' ? 'desc' : 'asc' };
}

/** One sortable column's header: a button that sorts by it, or turns its sort round; aria-sort says which way. */
function ColumnHeader({
  column,
  ordering,
  className,
}: {
  column: SongSortColumn;
  ordering: SongOrdering;
  className: string;
}) {
  const { order, onChange } = ordering;
  const active = order.by === column ? order.direction : null;
  return (
    <span
      role="columnheader"
      className={`song-sort__header ${className}`}
      aria-sort={active === null ? 'none' : active === 'asc' ? 'ascending' : 'descending'}
    >
      <button
        type="button"
        className="song-sort__button"
        data-active={active !== null}
        onClick={() => {
          onChange(toggled(order, column));
        }}
      >
        {COLUMN_LABELS[column]}
        <span className="song-sort__arrow" aria-hidden="true">
          {active === 'asc' ? '▲' : active === 'desc' ? '▼' : ''}
        </span>
      </button>
    </span>
  );
}

/**
 * Issue 26: a song list's column headers (title, artist, album, genre, plays, duration; on wide screens, lined up with
 * the rows' grid) and a "Sort by" select with every order, the list's own first (the only control on a phone).
 */
export function SongSortHeader({
  ordering,
  label,
  columns,
  sortable = false,
}: {
  ordering: SongOrdering;
  /** The list's accessible name ("Songs"): the headers are "Sort Songs". */
  label: string;
  /** The optional columns shown (a column empty in every row is hidden). */
  columns: { album: boolean; duration: boolean };
  /** Over a playlist owner's rows, which start with a reorder handle. */
  sortable?: boolean;
}) {
  const { kind, order, onChange } = ordering;
  return (
    <div className="song-sort">
      <label className="song-sort__select">
        <span>Sort by</span>
        <select
          className="input select select--compact"
          value={valueOf(order)}
          onChange={(event) => {
            onChange(orderOf(event.target.value));
          }}
        >
          <option value="list">{LIST_ORDER_LABELS[kind]}</option>
          {SONG_SORT_COLUMNS.flatMap((column) =>
            (['asc', 'desc'] as const).map((direction) => (
              <option key={`${column}:${direction}`} value={`${column}:${direction}`}>
                {`${COLUMN_LABELS[column]} (${DIRECTION_WORDS[column][direction]})`}
              </option>
            )),
          )}
        </select>
      </label>
      <div role="table" aria-label={`Sort ${label}`} className="song-sort__table">
        <div
          role="row"
          className={sortable ? 'song-row song-row--header song-row--sortable' : 'song-row song-row--header'}
        >
          {sortable && <span aria-hidden="true" />}
          <span className="song-row__position" aria-hidden="true">
            #
          </span>
          <span aria-hidden="true" />
          <span aria-hidden="true" />
          <span className="song-sort__title">
            <ColumnHeader column="title" ordering={ordering} className="song-sort__header--title" />
            <ColumnHeader column="artist" ordering={ordering} className="song-sort__header--artist" />
          </span>
          {columns.album ? (
            <ColumnHeader column="album" ordering={ordering} className="song-row__album" />
          ) : (
            // The rows' album cells are there, empty: the header keeps their place (song-list--no-album hides both).
            <span className="song-row__album" aria-hidden="true" />
          )}
          <ColumnHeader column="genre" ordering={ordering} className="song-row__genre" />
          <ColumnHeader column="plays" ordering={ordering} className="song-row__plays song-sort__header--plays" />
          <span aria-hidden="true" />
          {columns.duration ? (
            <ColumnHeader column="duration" ordering={ordering} className="song-sort__header--duration" />
          ) : (
            <span aria-hidden="true" />
          )}
          <span aria-hidden="true" />
        </div>
      </div>
    </div>
  );
}
