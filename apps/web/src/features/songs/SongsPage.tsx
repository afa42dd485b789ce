import { useQuery } from '@tanstack/react-query';
import type { Artist, Song } from '@tonearm/contract';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { Link, NavigationType, useLocation, useNavigationType, useSearchParams } from 'react-router';
import { Paths } from '../../lib/paths.js';
import { useDebouncedValue } from '../../lib/useDebouncedValue.js';
import { usePlayerControls } from '../../player/usePlayer.js';
import { Cover } from '../../ui/Cover.js';
import { ArrowLeftIcon, HeartIcon, PlayIcon, SearchIcon } from '../../ui/icons.js';
import { RouteLoader } from '../../ui/RouteLoader.js';
import { ArtistCard } from '../artists/ArtistCard.js';
import { PlaylistCard } from '../playlists/PlaylistCard.js';
import { songQueries } from './queries.js';
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

function PageHeader({
  eyebrow,
  title,
  meta,
  songs,
}: {
  eyebrow: string;
  title: string;
  meta?: string;
  songs: readonly Song[];
}) {
  return (
    <header className="page-header">
      <div className="page-header__text">
        <p className="eyebrow">{eyebrow}</p>
        <h1 className="page-title">{title}</h1>
        {meta !== undefined && <p className="page-header__meta">{meta}</p>}
      </div>
      <PlayAllButton songs={songs} label={`Play ${title.toLowerCase()}`} />
    </header>
  );
}

/**
 * The search box and the Liked chip, both kept in the URL (?q=, ?liked=1). The box has its own state: router updates
 * land a moment after the key press, and an input bound to the URL would drop a fast typist's keys. The URL follows
 * with replace navigations; any other navigation (a link, back/forward) puts the URL's text back in the box.
 */
function useSongParams() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigationType = useNavigationType();
  const urlText = params.get('q') ?? '';
  const [text, setText] = useState(urlText);
  const [seenKey, setSeenKey] = useState(location.key);
  if (location.key !== seenKey) {
    setSeenKey(location.key);
    if (navigationType !== NavigationType.Replace && text !== urlText) setText(urlText);
  }
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
  return {
    text,
    likedOnly: params.get('liked') === '1',
    setText: (value: string) => {
      setText(value);
      setParam('q', value);
    },
    setLiked: (liked: boolean) => {
      setParam('liked', liked ? '1' : null);
    },
  };
}

function Toolbar({ text, likedOnly, setText, setLiked }: ReturnType<typeof useSongParams>) {
  return (
    <div className="toolbar">
      <label className="search-field">
        <SearchIcon size={20} />
        <span className="visually-hidden">
          {likedOnly ? 'Search songs in Liked' : 'Search songs, artists and playlists'}
        </span>
        <input
          type="search"
          className="search-field__input"
          placeholder={likedOnly ? 'Filter your liked songs' : 'What do you want to listen to?'}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
          }}
        />
      </label>
      <button
        type="button"
        className="chip"
        aria-pressed={likedOnly}
        onClick={() => {
          setLiked(!likedOnly);
        }}
      >
        <HeartIcon size={16} />
        Liked
      </button>
    </div>
  );
}

/** As-you-type results from GET /api/search: songs, artists and playlists. */
function SearchResults({ q }: { q: string }) {
  const search = useQuery(songQueries.search(q));
  const data = search.data;
  if (!data) {
    if (search.isError) {
      return (
        <div className="empty-state">
          <p>Search is not available right now.</p>
          <button type="button" className="button button--ghost" onClick={() => void search.refetch()}>
            Try again
          </button>
        </div>
      );
    }
    return <RouteLoader label="Searching" />;
  }
  const nothing = data.songs.length === 0 && data.artists.length === 0 && data.playlists.length === 0;
  return (
    <div className="search-results" aria-busy={search.isFetching}>
      <p className="visually-hidden" role="status">
        {nothing
          ? `Nothing matches ${q}`
          : `${data.songs.length} songs, ${data.artists.length} artists, ${data.playlists.length} playlists`}
      </p>
      {nothing && (
        <div className="empty-state">
          <p className="empty-state__title">Nothing matches “{q}”</p>
          <p>Check the spelling, or try the name of an artist or a genre.</p>
        </div>
      )}
      {data.artists.length > 0 && (
        <ResultSection title="Artists">
          <ul className="tile-grid tile-grid--compact" aria-label="Artists">
            {data.artists.map((artist) => (
              <ArtistCard key={artist.id} artist={artist} />
            ))}
          </ul>
        </ResultSection>
      )}
      {data.playlists.length > 0 && (
        <ResultSection title="Playlists">
          <ul className="tile-grid tile-grid--compact" aria-label="Playlists">
            {data.playlists.map((playlist) => (
              <PlaylistCard key={playlist.id} playlist={playlist} />
            ))}
          </ul>
        </ResultSection>
      )}
      {data.songs.length > 0 && (
        <ResultSection title="Songs">
          <SongList songs={data.songs} label="Songs" />
        </ResultSection>
      )}
    </div>
  );
}

/** The general list; typing a query switches it to search results. */
function AllSongs({ params }: { params: ReturnType<typeof useSongParams> }) {
  const query = useAllSongs();
  const q = useDebouncedValue(params.text.trim());
  const search = useQuery({ ...songQueries.search(q), enabled: q !== '' });
  const songs = q === '' ? (query.data ?? []) : (search.data?.songs ?? []);
  return (
    <div className="page">
      <PageHeader
        eyebrow={q === '' ? 'Catalogue' : 'Search'}
        title="Songs"
        meta={q === '' ? (query.data ? countLabel(songs.length) : undefined) : `Results for “${q}”`}
        songs={songs}
      />
      <Toolbar {...params} />
      {q === '' ? (
        <SongList
          songs={songs}
          label="Songs"
          status={listStatus(query)}
          allowAdd
          onRetry={() => void query.refetch()}
        />
      ) : (
        <SearchResults q={q} />
      )}
    </div>
  );
}

/** Liked songs (GET /api/songs/liked), newest like first; the search box filters them here. */
function LikedSongs({ params }: { params: ReturnType<typeof useSongParams> }) {
  const query = useQuery(songQueries.liked());
  // An unliked song stays until the list is refetched, but not as liked: hide it at once.
  const liked = useMemo(() => (query.data ?? []).filter((song) => song.likeSong), [query.data]);
  const songs = useMemo(() => filterSongs(liked, params.text, false), [liked, params.text]);
  return (
    <div className="page">
      <PageHeader
        eyebrow="Your favourites"
        title="Liked songs"
        meta={query.data ? countLabel(songs.length) : undefined}
        songs={songs}
      />
      <Toolbar {...params} />
      <SongList
        songs={songs}
        label="Liked songs"
        status={listStatus(query)}
        onRetry={() => void query.refetch()}
        emptyState={
          <div className="empty-state">
            <span className="empty-state__icon">
              <HeartIcon size={32} />
            </span>
            <p className="empty-state__title">{params.text ? 'No liked song matches' : 'No liked songs yet'}</p>
            <p>Press the heart on any song, here or in the player, to keep it in this list.</p>
          </div>
        }
      />
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

function SongsView() {
  const params = useSongParams();
  return params.likedOnly ? <LikedSongs params={params} /> : <AllSongs params={params} />;
}

/**
 * `/dashboard/songs`: an artist's songs when artist details came with the navigation; otherwise all songs, search
 * results for `?q=`, or the liked songs for `?liked=1`.
 */
export function SongsPage() {
  const location = useLocation();
  const artist = artistFromState(location.state);
  return artist ? <ArtistSongs key={artist.id} artist={artist} /> : <SongsView />;
}

/** One titled group of search results (artists, playlists or songs). */
function ResultSection({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className="section" aria-labelledby={headingId}>
      <h2 id={headingId} className="section-title">
        {title}
      </h2>
      {children}
    </section>
  );
}
