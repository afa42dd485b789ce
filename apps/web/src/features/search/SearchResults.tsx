import { useQuery } from '@tanstack/react-query';
import type { SearchResponse } from '@tonearm/contract';
import { useId, useMemo, useState, type ReactNode } from 'react';
import type { SongSource } from '../../lib/song-sources.js';
import { LoadMore } from '../../ui/LoadMore.js';
import { RouteLoader } from '../../ui/RouteLoader.js';
import { AlbumGrid } from '../albums/AlbumCard.js';
import { ArtistCard } from '../artists/ArtistCard.js';
import { PlaylistCard } from '../playlists/PlaylistCard.js';
import { sortSongs, useSongOrder } from '../songs/song-order.js';
import { SongList } from '../songs/SongList.js';
import { searchQueries } from './queries.js';
import { SourcePlayback } from './SourcePlayback.js';
import { useSearchGroup, type SearchGroup } from './useSearchGroup.js';
import '../../ui/buttons.css';
import '../../ui/empty-state.css';
import '../../ui/page.css';
import '../../ui/tiles.css';
import './SearchResults.css';

/** The search source of `q`, the same object while `q` stays (it keys the player's context below). */
export function useSearchSource(q: string): SongSource {
  return useMemo(() => ({ kind: 'search', q }), [q]);
}

/** One titled group of search results, with "show more" while the server has more of it. */
function ResultSection({
  title,
  group,
  more,
  autoMore = false,
  children,
}: {
  title: string;
  group: Omit<SearchGroup<unknown>, 'items'>;
  more: string;
  autoMore?: boolean;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section className="section" aria-labelledby={headingId}>
      <h2 id={headingId} className="section-title">
        {title}
      </h2>
      {children}
      {group.nextCursor !== null && (
        <LoadMore label={more} loading={group.loading} failed={group.failed} onLoad={group.loadMore} auto={autoMore} />
      )}
    </section>
  );
}

/** The three groups of one answer; keyed by its query, so a new search starts each group from its first page. */
function ResultGroups({ q, first }: { q: string; first: SearchResponse }) {
  const songs = useSearchGroup(q, 'songs', (answer) => answer.songs, first);
  const artists = useSearchGroup(q, 'artists', (answer) => answer.artists, first);
  const playlists = useSearchGroup(q, 'playlists', (answer) => answer.playlists, first);
  const source = useSearchSource(q);
  // Issue 26: best match first, or the hits loaded so far sorted here (played as shown, not on through the rest).
  const [order, setOrder] = useSongOrder('search');
  const sortedSongs = useMemo(() => sortSongs(songs.items, order), [songs.items, order]);
  const ordering = { kind: 'search' as const, order, onChange: setOrder };
  // Issue 12: the first answer's albums (not paged here; an older server answers none).
  const albums = (first.albums as SearchResponse['albums'] | undefined) ?? [];
  const albumsHeadingId = useId();
  const nothing =
    songs.items.length === 0 && artists.items.length === 0 && playlists.items.length === 0 && albums.length === 0;
  return (
    <>
      <p className="visually-hidden" role="status">
        {nothing
          ? `Nothing matches ${q}`
          : `${songs.items.length} songs, ${artists.items.length} artists, ${playlists.items.length} playlists` +
            (albums.length > 0 ? `, ${albums.length} albums` : '')}
      </p>
      {nothing && (
        <div className="empty-state">
          <p className="empty-state__title">Nothing matches “{q}”</p>
          <p>Check the spelling, or try the name of an artist or a genre.</p>
        </div>
      )}
      {artists.items.length > 0 && (
        <ResultSection title="Artists" group={artists} more="Show more artists">
          <ul className="tile-grid tile-grid--compact" aria-label="Artists">
            {artists.items.map((artist) => (
              <ArtistCard key={artist.id} artist={artist} />
            ))}
          </ul>
        </ResultSection>
      )}
      {albums.length > 0 && (
        <section className="section" aria-labelledby={albumsHeadingId}>
          <h2 id={albumsHeadingId} className="section-title">
            Albums
          </h2>
          <AlbumGrid albums={albums} label="Albums" />
        </section>
      )}
      {playlists.items.length > 0 && (
        <ResultSection title="Playlists" group={playlists} more="Show more playlists">
          <ul className="tile-grid tile-grid--compact" aria-label="Playlists">
            {playlists.items.map((playlist) => (
              <PlaylistCard key={playlist.id} playlist={playlist} />
            ))}
          </ul>
        </ResultSection>
      )}
      {songs.items.length > 0 && (
        <ResultSection title="Songs" group={songs} more="Show more songs" autoMore>
          {order.by === 'list' ? (
            <SourcePlayback source={source} nextCursor={songs.nextCursor}>
              <SongList songs={songs.items} label="Songs" ordering={ordering} />
            </SourcePlayback>
          ) : (
            <SongList songs={sortedSongs} label="Songs" ordering={ordering} />
          )}
        </ResultSection>
      )}
    </>
  );
}

/**
 * As-you-type results from `search.query`: artists, playlists and songs, each group with "show more" while the
 * server has more of it (the songs load on as the list scrolls). Playing a song found plays on through every hit.
 */
export function SearchResults({ q }: { q: string }) {
  const search = useQuery(searchQueries.results(q));
  // While the next query's answer is on its way the previous one stays up: its groups belong to the previous text.
  const [shownQ, setShownQ] = useState(q);
  if (search.data && !search.isPlaceholderData && shownQ !== q) setShownQ(q);
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
  return (
    <div className="search-results" aria-busy={search.isFetching}>
      <ResultGroups key={shownQ} q={shownQ} first={data} />
    </div>
  );
}
