import type { Artist, Song } from '@tonearm/contract';
import { useDeferredValue, useMemo } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { Paths } from '../../lib/paths.js';
import { usePlayerControls } from '../../player/usePlayer.js';
import { Cover } from '../../ui/Cover.js';
import { ArrowLeftIcon, HeartIcon, PlayIcon, SearchIcon } from '../../ui/icons.js';
import { artistFromState, filterSongs } from './song-filter.js';
import { listStatus, SongList } from './SongList.js';
import { useAllSongs, useArtistSongs } from './useSongs.js';

function countLabel(count: number): string {
  return `${count.toLocaleString()} ${count === 1 ? 'song' : 'songs'}`;
}

function PlayAllButton({ songs, label }: { songs: readonly Song[]; label: string }) {
  const controls = usePlayerControls();
  return (
    <button
      type="button"
      className="play-toggle play-toggle--hero"
      aria-label={label}
      disabled={songs.length === 0}
      onClick={() => {
        controls.playList(songs, 0);
      }}
    >
      <PlayIcon size={26} />
    </button>
  );
}

/** The general list with search and the Liked filter, both kept in the URL (?q=, ?liked=1). */
function AllSongs() {
  const query = useAllSongs();
  const [params, setParams] = useSearchParams();
  const text = params.get('q') ?? '';
  const likedOnly = params.get('liked') === '1';
  const deferredText = useDeferredValue(text);
  const songs = useMemo(
    () => filterSongs(query.data ?? [], deferredText, likedOnly),
    [query.data, deferredText, likedOnly],
  );

  const setParam = (key: string, value: string | null): void => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === null || value === '') next.delete(key);
        else next.set(key, value);
        return next;
      },
      { replace: true },
    );
  };

  const title = likedOnly ? 'Liked songs' : 'Songs';
  return (
    <div className="page">
      <header className="page-header">
        <div className="page-header__text">
          <p className="eyebrow">{likedOnly ? 'Your favourites' : 'Catalogue'}</p>
          <h1 className="page-title">{title}</h1>
          {query.data && <p className="page-header__meta">{countLabel(songs.length)}</p>}
        </div>
        <PlayAllButton songs={songs} label={`Play ${title.toLowerCase()}`} />
      </header>
      <div className="toolbar">
        <label className="search-field">
          <SearchIcon size={20} />
          <span className="visually-hidden">Search songs</span>
          <input
            type="search"
            className="search-field__input"
            placeholder="What do you want to listen to?"
            value={text}
            onChange={(event) => {
              setParam('q', event.target.value);
            }}
          />
        </label>
        <button
          type="button"
          className="chip"
          aria-pressed={likedOnly}
          onClick={() => {
            setParam('liked', likedOnly ? null : '1');
          }}
        >
          <HeartIcon size={16} />
          Liked
        </button>
      </div>
      <SongList songs={songs} label={title} status={listStatus(query)} allowAdd onRetry={() => void query.refetch()} />
    </div>
  );
}

/** SPEC §2: with artist details from navigation, the artist's header and only their songs. */
function ArtistSongs({ artist }: { artist: Artist }) {
  const query = useArtistSongs(artist.id);
  const origin = useMemo(() => ({ artist }), [artist]);
  const songs = query.data ?? [];
  return (
    <div className="page">
      <Link to={Paths.artist} className="back-link">
        <ArrowLeftIcon size={18} />
        All artists
      </Link>
      <header className="page-header page-header--artist">
        <Cover src={artist.image} width={300} shape="circle" className="page-header__art" />
        <div className="page-header__text">
          <p className="eyebrow">Artist</p>
          <h1 className="page-title page-title--hero">{artist.name}</h1>
          {query.data && <p className="page-header__meta">{countLabel(songs.length)}</p>}
        </div>
        <PlayAllButton songs={songs} label={`Play ${artist.name}`} />
      </header>
      <SongList
        songs={songs}
        label={`Songs by ${artist.name}`}
        status={listStatus(query)}
        origin={origin}
        allowAdd
        onRetry={() => void query.refetch()}
      />
    </div>
  );
}

/** `/dashboard/songs`: an artist's songs when artist details came with the navigation, otherwise all songs. */
export function SongsPage() {
  const location = useLocation();
  const artist = artistFromState(location.state);
  return artist ? <ArtistSongs key={artist.id} artist={artist} /> : <AllSongs />;
}
