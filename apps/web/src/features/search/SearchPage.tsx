import { useQuery } from '@tanstack/react-query';
import { useDebouncedValue } from '../../lib/useDebouncedValue.js';
import { useMemo } from 'react';
import { orderedCatalogue } from '../songs/catalogue.js';
import { useSongOrder } from '../songs/song-order.js';
import { PagedSongList } from '../songs/PagedSongList.js';
import { countLabel, SongsHeader } from '../songs/SongsHeader.js';
import { SongsToolbar, type SongParams } from '../songs/SongsToolbar.js';
import { usePagedSongs } from '../songs/useSongs.js';
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
  // Issue 26: the catalogue in the order chosen in its headers (shuffled by default), sorted by the server.
  const [order, setOrder] = useSongOrder('catalogue');
  const ordered = useMemo(() => orderedCatalogue(order), [order]);
  const catalogue = usePagedSongs(ordered);
  const q = useDebouncedValue(params.text.trim());
  const search = useQuery({ ...searchQueries.results(q), enabled: q !== '' });
  const source = useSearchSource(q);
  const songs = q === '' ? catalogue.songs : (search.data?.songs ?? []);
  const header =
    q === '' ? (
      <SongsHeader
        eyebrow="Catalogue"
        title="Songs"
        meta={catalogue.total === undefined ? undefined : countLabel(catalogue.total)}
        songs={songs}
        source={catalogue.source}
        nextCursor={catalogue.paging.nextCursor}
        shuffleAll
      />
    ) : (
      // Play goes on past the first page of hits (not past the previous search's, still shown while typing).
      <SourcePlayback
        source={source}
        nextCursor={search.isPlaceholderData ? null : (search.data?.nextCursors.songs ?? null)}
      >
        <SongsHeader eyebrow="Search" title="Songs" meta={`Results for “${q}”`} songs={songs} />
      </SourcePlayback>
    );
  return (
    <div className="page">
      {header}
      <SongsToolbar {...params} />
      {q === '' ? (
        <PagedSongList
          list={catalogue}
          label="Songs"
          allowAdd
          ordering={{ kind: 'catalogue', order, onChange: setOrder }}
        />
      ) : (
        <SearchResults q={q} />
      )}
    </div>
  );
}
