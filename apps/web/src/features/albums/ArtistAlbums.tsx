import type { AlbumSort, AlbumSummary, Artist } from '@tonearm/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { SortSelect, type SortChoice } from '../../ui/SortSelect.js';
import { AlbumGrid } from './AlbumCard.js';
import { albumQueries } from './queries.js';
import '../../ui/page.css';

/** The albums by name, the placeholder album (the artist's songs without an album, issue 25) last. */
export function placeholderLast(albums: readonly AlbumSummary[]): AlbumSummary[] {
  return [...albums.filter((album) => !album.placeholder), ...albums.filter((album) => album.placeholder)];
}

const ALBUM_SORTS: readonly SortChoice<AlbumSort>[] = [
  { value: 'name', label: 'Name' },
  { value: 'recent', label: 'Newest first' },
  { value: 'rating', label: 'Your rating' },
];

/**
 * Issue 12: on an artist's page, their albums (as album artist) and then a heading for their songs below; nothing
 * while they have none. Every song is on an album (issue 25): songs without one of their own are in the artist's
 * "Unknown album", shown last. Sorted by name, newest first or by the listener's stars (issue 28).
 */
export function ArtistAlbums({ artist }: { artist: Artist }) {
  // One grid per artist: its order, and the albums kept on screen while another order loads, are that artist's.
  return <SortedAlbums key={artist.id} artist={artist} />;
}

function SortedAlbums({ artist }: { artist: Artist }) {
  const headingId = useId();
  const [sort, setSort] = useState<AlbumSort>('name');
  const listed = useQuery({ ...albumQueries.byArtist(artist.id, sort), placeholderData: keepPreviousData });
  const albums = placeholderLast(listed.data?.items ?? []);
  if (albums.length === 0) return null;
  return (
    <>
      <section className="section" aria-labelledby={headingId}>
        <h2 id={headingId} className="section-title">
          Albums
        </h2>
        {albums.length > 1 && <SortSelect label="Sort albums" value={sort} choices={ALBUM_SORTS} onChange={setSort} />}
        <AlbumGrid albums={albums} label={`Albums by ${artist.name}`} withArtist={false} />
      </section>
      <h2 className="section-title">Songs</h2>
    </>
  );
}
