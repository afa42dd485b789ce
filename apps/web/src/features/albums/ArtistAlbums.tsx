import type { Artist } from '@tonearm/contract';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { AlbumGrid } from './AlbumCard.js';
import { albumQueries } from './queries.js';
import '../../ui/page.css';

/**
 * Issue 12: on an artist's page, their albums (as album artist) and then a heading for their songs below; nothing
 * while they have none.
 */
export function ArtistAlbums({ artist }: { artist: Artist }) {
  const headingId = useId();
  const albums = useQuery(albumQueries.byArtist(artist.id)).data?.items ?? [];
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
