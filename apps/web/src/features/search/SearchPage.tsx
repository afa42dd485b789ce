import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useDebouncedValue } from '../../lib/useDebouncedValue.js';
import { useDocumentTitle } from '../../lib/useDocumentTitle.js';
import { orderedCatalogue } from '../songs/catalogue.js';
import { useSongOrder } from '../songs/song-order.js';
import { PagedSongList } from '../songs/PagedSongList.js';
import { countLabel, PlayAllButton, ShuffleAllButton, SongsHeader, type PlayAllProps } from '../songs/SongsHeader.js';
import { SongsToolbar, type SongParams } from '../songs/SongsToolbar.js';
import { usePagedSongs } from '../songs/useSongs.js';
import { searchQueries } from './queries.js';
import { SearchResults, useSearchSource } from './SearchResults.js';
import { SourcePlayback } from './SourcePlayback.js';
import '../../ui/page.css';
import './SearchResults.css';

/**
 * The text whose results are on screen: `q` once its answer (or its failure) is in; until then the previous one, so
 * typing never blanks the page (issue 26). '' is the catalogue, always at hand.
 */
function useShownQuery(q: string, answered: boolean): string {
  const [shown, setShown] = useState(q);
  const next = q === '' || answered ? q : shown;
  if (next !== shown) setShown(next);
  return next;
}

/** The Search page's header: its title, what is shown, and Play (Shuffle too for the whole catalogue). */
function SearchHeader({
  meta,
  play,
  shuffleAll,
}: {
  meta: string | undefined;
  play: PlayAllProps;
  shuffleAll: boolean;
}) {
  return (
    <header className="page-header">
      <div className="page-header__text">
        <p className="eyebrow">Browse</p>
        <h1 className="page-title">Search</h1>
        {meta !== undefined && <p className="page-header__meta">{meta}</p>}
      </div>
      <div className="page-header__actions">
        {shuffleAll && <ShuffleAllButton label="Shuffle all songs" />}
        <PlayAllButton {...play} label={shuffleAll ? 'Play songs' : 'Play results'} />
      </div>
    </header>
  );
}

/**
 * Search: all songs while the box is empty, search results once typing pauses. One page for both, so the box keeps
 * focus while the list below it changes; the full list stays loaded meanwhile and is back at once when the box is
 * cleared. While the next answer is on its way the results on screen stay, with a small "Searching…" beside the box.
 * At /dashboard/songs (SPEC §2's general song list) its title is "Songs"; the sidebar's Search opens it titled
 * "Search" at /dashboard/search (issue 26).
 */
export function SearchPage({ params, titled = 'Songs' }: { params: SongParams; titled?: 'Songs' | 'Search' }) {
  // Issue 26: the catalogue in the order chosen in its headers (shuffled by default), sorted by the server.
  const [order, setOrder] = useSongOrder('catalogue');
  const ordered = useMemo(() => orderedCatalogue(order), [order]);
  const catalogue = usePagedSongs(ordered);
  const typed = params.text.trim();
  const q = useDebouncedValue(typed);
  const search = useQuery({ ...searchQueries.results(q), enabled: q !== '' });
  const shownQ = useShownQuery(q, search.isError || (search.data !== undefined && !search.isPlaceholderData));
  const shown = useQuery({ ...searchQueries.results(shownQ), enabled: shownQ !== '' });
  const source = useSearchSource(shownQ);
  const busy = typed !== shownQ;
  useDocumentTitle(titled);
  const songs = shownQ === '' ? catalogue.songs : (shown.data?.songs ?? []);
  const meta =
    shownQ === ''
      ? catalogue.total === undefined
        ? undefined
        : countLabel(catalogue.total)
      : `Results for “${shownQ}”`;
  const header =
    titled === 'Search' ? (
      <SearchHeader
        meta={meta}
        play={
          shownQ === ''
            ? { songs, source: catalogue.source, nextCursor: catalogue.paging.nextCursor }
            : { songs, source, nextCursor: shown.data?.nextCursors.songs ?? null }
        }
        shuffleAll={shownQ === ''}
      />
    ) : shownQ === '' ? (
      <SongsHeader
        eyebrow="Catalogue"
        title="Songs"
        meta={meta}
        songs={songs}
        source={catalogue.source}
        nextCursor={catalogue.paging.nextCursor}
        shuffleAll
      />
    ) : (
      // Play goes on past the first page of hits.
      <SourcePlayback source={source} nextCursor={shown.data?.nextCursors.songs ?? null}>
        <SongsHeader eyebrow="Search" title="Songs" meta={meta} songs={songs} />
      </SourcePlayback>
    );
  return (
    <div className="page">
      {header}
      <SongsToolbar {...params} />
      <p className="search-status" aria-live="polite">
        {busy && <span className="search-status__busy">Searching…</span>}
      </p>
      <div aria-busy={busy}>
        {shownQ === '' ? (
          <PagedSongList
            list={catalogue}
            label="Songs"
            allowAdd
            ordering={{ kind: 'catalogue', order, onChange: setOrder }}
          />
        ) : (
          <SearchResults q={shownQ} />
        )}
      </div>
    </div>
  );
}
