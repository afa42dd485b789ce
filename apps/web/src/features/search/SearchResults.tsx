import { useQuery } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { RouteLoader } from '../../ui/RouteLoader.js';
import { ArtistCard } from '../artists/ArtistCard.js';
import { PlaylistCard } from '../playlists/PlaylistCard.js';
import { SongList } from '../songs/SongList.js';
import { searchQueries } from './queries.js';
import '../../ui/buttons.css';
import '../../ui/empty-state.css';
import '../../ui/page.css';
import '../../ui/tiles.css';
import './SearchResults.css';

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

/** As-you-type results from `search.query`: songs, artists and playlists. */
export function SearchResults({ q }: { q: string }) {
  const search = useQuery(searchQueries.results(q));
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
