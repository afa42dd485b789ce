import { useInfiniteQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Song } from '@tonearm/contract';
import { useEffect, useMemo, useState } from 'react';
import { useDebouncedValue } from '../../lib/useDebouncedValue.js';
import { Cover } from '../../ui/Cover.js';
import { ArrowDownIcon, ArrowUpIcon, CloseIcon, DragHandleIcon, PlusIcon, SearchIcon } from '../../ui/icons.js';
import { useSortable } from '../../ui/useSortable.js';
import { songPickerQueries } from './queries.js';
import '../../ui/buttons.css';
import '../../ui/drag-handle.css';
import '../../ui/forms.css';
import '../../ui/search-field.css';
import './SongPicker.css';

function SongLine({ song }: { song: Song }) {
  return (
    <>
      <Cover src={song.imgLink} width={64} className="picker__cover" />
      <span className="picker__text">
        <span className="picker__name">{song.name}</span>
        <span className="picker__artist">{song.artistName}</span>
      </span>
    </>
  );
}

function PickedSongs({ songs, onChange }: { songs: readonly Song[]; onChange: (songs: Song[]) => void }) {
  const move = (from: number, to: number): void => {
    const next = [...songs];
    const [moved] = next.splice(from, 1);
    if (!moved) return;
    next.splice(to, 0, moved);
    onChange(next);
  };
  const sortable = useSortable({
    keys: songs.map((song) => song.id),
    onMove: move,
    describeMove: (from, to) => `${songs[from]?.name ?? 'Song'} moved to position ${to + 1} of ${songs.length}`,
  });
  if (songs.length === 0) {
    return <p className="picker__empty">No songs yet. Search on the left and add some, or save it empty.</p>;
  }
  return (
    <>
      <ol className="picker__list" aria-label="Songs in this playlist">
        {songs.map((song, index) => (
          <li
            key={song.id}
            aria-label={song.name}
            className="picker__item"
            data-sortable-item
            style={sortable.itemStyle(index)}
          >
            <button
              type="button"
              className="icon-button drag-handle"
              aria-label={`Reorder ${song.name}`}
              aria-roledescription="sortable handle"
              {...sortable.handleProps(index)}
            >
              <DragHandleIcon size={18} />
            </button>
            <span className="picker__position" aria-hidden="true">
              {index + 1}
            </span>
            <SongLine song={song} />
            <button
              type="button"
              className="icon-button"
              aria-label={`Move ${song.name} up`}
              disabled={index === 0}
              onClick={() => {
                move(index, index - 1);
              }}
            >
              <ArrowUpIcon size={16} />
            </button>
            <button
              type="button"
              className="icon-button"
              aria-label={`Move ${song.name} down`}
              disabled={index === songs.length - 1}
              onClick={() => {
                move(index, index + 1);
              }}
            >
              <ArrowDownIcon size={16} />
            </button>
            <button
              type="button"
              className="icon-button"
              aria-label={`Remove ${song.name}`}
              onClick={() => {
                onChange(songs.filter((entry) => entry.id !== song.id));
              }}
            >
              <CloseIcon size={16} />
            </button>
          </li>
        ))}
      </ol>
      <p className="visually-hidden" role="status">
        {sortable.announcement}
      </p>
    </>
  );
}

export interface SongPickerProps {
  picked: readonly Song[];
  onChange: (songs: Song[]) => void;
}

/** A found song's row, gap included (CSS: .picker__list--virtual > .picker__item). */
const FOUND_ROW_HEIGHT = 54;
/** The found songs show about this many pixels before they scroll (CSS: .picker__found). */
const FOUND_VIEW_HEIGHT = 432;
/** The next page is asked for once the rows in view come this close to the last one loaded. */
const FETCH_AHEAD_ROWS = 10;

/**
 * The songs found for `q`, a page at a time (`songs.page`): a virtualised list that scrolls on its own and asks for the
 * next page as its end comes near, so the whole catalogue can be browsed without loading it.
 */
function FoundSongs({ q, picked, onChange }: SongPickerProps & { q: string }) {
  const results = useInfiniteQuery(songPickerQueries.songs(q));
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = results;
  const found = useMemo(() => results.data?.pages.flatMap((page) => page.items) ?? [], [results.data]);
  const total = results.data?.pages[0]?.total ?? found.length;
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  // The compiler cannot memoise around TanStack Virtual; this component re-renders on scroll by design.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: found.length,
    getScrollElement: () => scroller,
    estimateSize: () => FOUND_ROW_HEIGHT,
    overscan: 6,
    initialRect: { width: 480, height: FOUND_VIEW_HEIGHT },
    getItemKey: (index) => found[index]?.id ?? index,
  });
  const rows = virtualizer.getVirtualItems();
  const lastInView = rows.at(-1)?.index ?? -1;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastInView >= found.length - FETCH_AHEAD_ROWS) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, lastInView, found.length, fetchNextPage]);
  // A new search starts at the top of its list.
  useEffect(() => {
    if (scroller) scroller.scrollTop = 0;
  }, [q, scroller]);

  const pickedIds = new Set(picked.map((song) => song.id));
  if (results.isPending) return <p className="muted">Searching…</p>;
  if (results.isSuccess && found.length === 0) return <p className="picker__empty">No songs match “{q}”.</p>;
  if (found.length === 0) return null;
  return (
    <div ref={setScroller} className="picker__found">
      <ul
        className="picker__list picker__list--virtual"
        aria-label="Search results"
        aria-busy={results.isFetching}
        style={{ height: virtualizer.getTotalSize() }}
      >
        {rows.map((row) => {
          const song = found[row.index];
          if (!song) return null;
          const added = pickedIds.has(song.id);
          return (
            <li
              key={row.key}
              aria-label={song.name}
              aria-posinset={row.index + 1}
              aria-setsize={total}
              className="picker__item"
              style={{ transform: `translateY(${row.start}px)` }}
            >
              <SongLine song={song} />
              <button
                type="button"
                className={added ? 'button button--ghost button--small' : 'button button--small'}
                aria-label={`${added ? 'Remove' : 'Add'} ${song.name}`}
                onClick={() => {
                  onChange(added ? picked.filter((entry) => entry.id !== song.id) : [...picked, song]);
                }}
              >
                {added ? (
                  'Added'
                ) : (
                  <>
                    <PlusIcon size={16} /> Add
                  </>
                )}
              </button>
            </li>
          );
        })}
      </ul>
      {isFetchingNextPage && <p className="muted picker__more">Loading more songs…</p>}
    </div>
  );
}

/**
 * Find songs as you type (`songs.page` with `q`, debounced; the newest songs while the box is empty) and build the
 * playlist's ordered song list.
 */
export function SongPicker({ picked, onChange }: SongPickerProps) {
  const [text, setText] = useState('');
  const q = useDebouncedValue(text.trim());
  return (
    <fieldset className="picker">
      <legend className="field__label">Songs</legend>
      <div className="picker__columns">
        <div className="picker__search">
          <label className="search-field search-field--compact">
            <SearchIcon size={18} />
            <span className="visually-hidden">Find songs</span>
            <input
              type="search"
              className="search-field__input"
              placeholder="Find songs by name, artist or genre"
              value={text}
              onChange={(event) => {
                setText(event.target.value);
              }}
              onKeyDown={(event) => {
                // Enter searches (it already does, as you type); it must not submit the playlist form.
                if (event.key === 'Enter') event.preventDefault();
              }}
            />
          </label>
          <FoundSongs q={q} picked={picked} onChange={onChange} />
        </div>
        <div className="picker__picked">
          <p className="picker__count">
            {picked.length} {picked.length === 1 ? 'song' : 'songs'} in this playlist
          </p>
          <PickedSongs songs={picked} onChange={onChange} />
        </div>
      </div>
    </fieldset>
  );
}
