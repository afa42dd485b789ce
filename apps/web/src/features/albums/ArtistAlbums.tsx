import type { AlbumSummary, Artist } from '@tonearm/contract';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { AlbumGrid } from './AlbumCard.js';
import { albumQueries } from './queries.js';
import '../../ui/page.css';

/** The albums by name, the placeholder album (the artist's songs without an album, issue 25) last. */
export function placeholderLast(albums: readonly AlbumSummary[]): AlbumSummary[] {
  return [...albums.filter((album) => !album.placeholder), ...albums.filter((album) => album.placeholder)];
}

/**
 * Issue 12: on an artist's page, their albums (as album artist) and then a heading for their songs below; nothing
 * while they have none. Every song is on an album (issue 25): songs without one of their own are in the artist's
 * "Unknown album", shown last.
 */
export function ArtistAlbums({ artist }: { artist: Artist }) {
  const headingId = useId();
  const albums = placeholderLast(useQuery(albumQueries.byArtist(artist.id)).data?.items ?? []);
  if (albums.length === 0) return null;
  return (
    <>
      <section className="section" aria-labelledby={headingId}>
        <h2 id={headingId} className="section-title">
          Albums
        </h2>
        <AlbumGrid albums={albums} label={`Albums by ${artist.name}`} withArtist={false} />
      </section>
      <h2 className="section-title">Songs</h2>
    </>
  );
}
