import { useInfiniteQuery } from '@tanstack/react-query';
import type { Artist, ArtistCreditRole, Song } from '@tonearm/contract';
import { useCallback, useId, useMemo } from 'react';
import { isApiError } from '../../lib/api-client.js';
import { artistQueries } from '../artists/queries.js';
import { rolesText } from './credits.js';
import { listStatus, SongList, type SongListPaging } from './SongList.js';
import '../../ui/page.css';

/**
 * Issue 25: on an artist's page, after their own songs, the songs that credit them in another role (composer,
 * producer…), each with those roles in place of its genre. Nothing while there are none (or the artist is unknown).
 */
export function ArtistCredits({ artist }: { artist: Artist }) {
  const headingId = useId();
  const query = useInfiniteQuery(artistQueries.credits(artist.id));
  const pages = query.data?.pages;
  const songs = useMemo(() => pages?.flatMap((page) => page.items) ?? [], [pages]);
  const roles = useMemo(() => {
    const all: Record<number, ArtistCreditRole[]> = {};
    for (const page of pages ?? []) Object.assign(all, page.roles);
    return all;
  }, [pages]);
  const last = pages?.at(-1);
  const { hasNextPage, isFetching, isFetchNextPageError, fetchNextPage: fetchPage } = query;
  const fetchNextPage = useCallback(() => void fetchPage({ cancelRefetch: false }), [fetchPage]);
  const paging = useMemo<SongListPaging>(
    () => ({
      nextCursor: last?.nextCursor ?? null,
      total: last?.total,
      hasNextPage,
      isFetching,
      isFetchNextPageError,
      fetchNextPage,
    }),
    [last, hasNextPage, isFetching, isFetchNextPageError, fetchNextPage],
  );
  if (query.isPending || isApiError(query.error, 404) || (query.isSuccess && songs.length === 0)) return null;
  return (
    <section className="section" aria-labelledby={headingId}>
      <h2 id={headingId} className="section-title">
        Also credited on
      </h2>
      <SongList
        songs={songs}
        label={`Songs crediting ${artist.name}`}
        status={listStatus(query)}
        onRetry={() => void query.refetch()}
        paging={paging}
        detail={(song: Song) => rolesText(roles[song.id] ?? [])}
      />
    </section>
  );
}
