import { useQuery } from '@tanstack/react-query';
import { useDebouncedValue } from '../../lib/useDebouncedValue.js';
import { catalogueSource } from '../songs/catalogue.js';
import { PagedSongList } from '../songs/PagedSongList.js';
import { countLabel, SongsHeader } from '../songs/SongsHeader.js';
import { SongsToolbar, type SongParams } from '../songs/SongsToolbar.js';
import { usePagedSongs } from '../songs/useSongs.js';
import { searchQueries } from './queries.js';
import { SearchResults } from './SearchResults.js';
import '../../ui/page.css';

/**
 * Search (the sidebar's entry for /dashboard/songs): all songs while the box is empty, search results once typing
 * pauses. One page for both, so the box keeps focus while the list below it changes; the full list stays loaded
 * meanwhile and is back at once when the box is cleared.
 */
export function SearchPage({ params }: { params: SongParams }) {
  const catalogue = usePagedSongs(catalogueSource());
  const q = useDebouncedValue(params.text.trim());
  const search = useQuery({ ...searchQueries.results(q), enabled: q !== '' });
  const songs = q === '' ? catalogue.songs : (search.data?.songs ?? []);
  return (
    <div className="page">
      <SongsHeader
        eyebrow={q === '' ? 'Catalogue' : 'Search'}
        title="Songs"
        meta={
          q === '' ? (catalogue.total === undefined ? undefined : countLabel(catalogue.total)) : `Results for “${q}”`
        }
        songs={songs}
        {...(q === '' && { source: catalogue.source, nextCursor: catalogue.paging.nextCursor, shuffleAll: true })}
      />
      <SongsToolbar {...params} />
      {q === '' ? <PagedSongList list={catalogue} label="Songs" allowAdd /> : <SearchResults q={q} />}
    </div>
  );
}
