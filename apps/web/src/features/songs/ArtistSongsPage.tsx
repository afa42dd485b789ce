import type { AlbumSummary, Artist } from '@tonearm/contract';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo } from 'react';
import { Link } from 'react-router';
import { Paths } from '../../lib/paths.js';
import { Cover } from '../../ui/Cover.js';
import { ArrowLeftIcon } from '../../ui/icons.js';
import { AlbumGrid } from '../albums/AlbumCard.js';
import { albumQueries } from '../albums/queries.js';
import { catalogueSource } from './catalogue.js';
import { PagedSongList } from './PagedSongList.js';
import { countLabel, PlayAllButton, ShuffleAllButton } from './SongsHeader.js';
import { usePagedSongs } from './useSongs.js';
import '../../ui/page.css';

/** Issue 12: the artist's albums (as album artist) above their songs. */
function ArtistAlbums({ artist, albums }: { artist: Artist; albums: readonly AlbumSummary[] }) {
  const headingId = useId();
  return (
    <section className="section" aria-labelledby={headingId}>
      <h2 id={headingId} className="section-title">
        Albums
      </h2>
      <AlbumGrid albums={albums} label={`Albums by ${artist.name}`} withArtist={false} />
    </section>
  );
}

/**
 * SPEC §2: with artist details from navigation, the artist's header and only their songs, a page at a time; their
 * albums first (issue 12).
 */
export function ArtistSongsPage({ artist }: { artist: Artist }) {
  const source = useMemo(() => catalogueSource(artist.id), [artist.id]);
  const list = usePagedSongs(source);
  const origin = useMemo(() => ({ artist }), [artist]);
  const albums = useQuery(albumQueries.byArtist(artist.id)).data?.items ?? [];
  return (
    <div className="page">
      <Link to={Paths.artist} className="back-link">
        <ArrowLeftIcon size={18} />
        All artists
      </Link>
      <header className="page-header page-header--artist">
        <Cover src={artist.image} width={300} shape="circle" className="page-header__art" />
        <div className="page-header__text">
          <p className="eyebrow">Artist</p>
          <h1 className="page-title page-title--hero">{artist.name}</h1>
          {list.total !== undefined && <p className="page-header__meta">{countLabel(list.total)}</p>}
        </div>
        <div className="page-header__actions">
          <ShuffleAllButton artistId={artist.id} label={`Shuffle ${artist.name}`} />
          <PlayAllButton
            songs={list.songs}
            source={source}
            nextCursor={list.paging.nextCursor}
            label={`Play ${artist.name}`}
          />
        </div>
      </header>
      {albums.length > 0 && (
        <>
          <ArtistAlbums artist={artist} albums={albums} />
          <h2 className="section-title">Songs</h2>
        </>
      )}
      <PagedSongList list={list} label={`Songs by ${artist.name}`} origin={origin} allowAdd />
    </div>
  );
}
