import { useQuery } from '@tanstack/react-query';
import { useDebouncedValue } from '../../lib/useDebouncedValue.js';
import { listStatus, SongList } from '../songs/SongList.js';
import { countLabel, SongsHeader } from '../songs/SongsHeader.js';
import { SongsToolbar, type SongParams } from '../songs/SongsToolbar.js';
import { useAllSongs } from '../songs/useSongs.js';
import { searchQueries } from './queries.js';
import { SearchResults, useSearchSource } from './SearchResults.js';
import { SourcePlayback } from './SourcePlayback.js';
import '../../ui/page.css';

/**
 * Search (the sidebar's entry for /dashboard/songs): all songs while the box is empty, search results once typing
 * pauses. One page for both, so the box keeps focus while the list below it changes; the full list stays loaded
 * meanwhile and is back at once when the box is cleared.
 */
export function SearchPage({ params }: { params: SongParams }) {
  const query = useAllSongs();
  const q = useDebouncedValue(params.text.trim());
  const search = useQuery({ ...searchQueries.results(q), enabled: q !== '' });
  const source = useSearchSource(q);
  const songs = q === '' ? (query.data ?? []) : (search.data?.songs ?? []);
  const header = (
    <SongsHeader
      eyebrow={q === '' ? 'Catalogue' : 'Search'}
      title="Songs"
      meta={q === '' ? (query.data ? countLabel(songs.length) : undefined) : `Results for “${q}”`}
      songs={songs}
    />
  );
  return (
    <div className="page">
      {q === '' ? (
        header
      ) : (
        // Play goes on past the first page of hits (not past the previous search's, still shown while typing).
        <SourcePlayback
          source={source}
          nextCursor={search.isPlaceholderData ? null : (search.data?.nextCursors.songs ?? null)}
        >
          {header}
        </SourcePlayback>
      )}
      <SongsToolbar {...params} />
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
