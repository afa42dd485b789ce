import { useQuery } from '@tanstack/react-query';
import type { Song } from '@tonearm/contract';
import { useState } from 'react';
import { useDebouncedValue } from '../../lib/useDebouncedValue.js';
import { Cover } from '../../ui/Cover.js';
import { ArrowDownIcon, ArrowUpIcon, CloseIcon, DragHandleIcon, PlusIcon, SearchIcon } from '../../ui/icons.js';
import { useSortable } from '../../ui/useSortable.js';
import { songQueries } from '../songs/queries.js';
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

/** Find songs as you type (`songs.list` with `q`, debounced) and build the playlist's ordered song list. */
export function SongPicker({ picked, onChange }: SongPickerProps) {
  const [text, setText] = useState('');
  const q = useDebouncedValue(text.trim());
  const results = useQuery(songQueries.find(q));
  const pickedIds = new Set(picked.map((song) => song.id));
  const found = results.data ?? [];
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
          {results.isPending && <p className="muted">Searching…</p>}
          {results.isSuccess && found.length === 0 && <p className="picker__empty">No songs match “{q}”.</p>}
          {found.length > 0 && (
            <ul className="picker__list" aria-label="Search results" aria-busy={results.isFetching}>
              {found.map((song) => {
                const added = pickedIds.has(song.id);
                return (
                  <li key={song.id} aria-label={song.name} className="picker__item">
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
          )}
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
