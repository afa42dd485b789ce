import { useQuery } from '@tanstack/react-query';
import type { Artist } from '@tonearm/contract';
import { useMemo, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Paths } from '../../lib/paths.js';
import { Cover } from '../../ui/Cover.js';
import { ArrowLeftIcon } from '../../ui/icons.js';
import { StarRating } from '../../ui/StarRating.js';
import { useRateArtist } from '../artists/mutations.js';
import { artistQueries } from '../artists/queries.js';
import { StartRadioButton } from '../radio/StartRadioButton.js';
import { orderedCatalogue } from './catalogue.js';
import { useSongOrder } from './song-order.js';
import { PagedSongList } from './PagedSongList.js';
import { countLabel, PlayAllButton, ShuffleAllButton } from './SongsHeader.js';
import { usePagedSongs } from './useSongs.js';
import '../../ui/page.css';

/** Issue 28: the caller's stars on the artist (updated at once, put back when refused). */
function ArtistRating({ artistId, name, rating }: { artistId: number; name: string; rating: number | null }) {
  const rate = useRateArtist(artistId);
  return (
    <StarRating
      rating={rating}
      itemName={name}
      size="large"
      onRate={(next) => {
        rate.mutate(next);
      }}
    />
  );
}

/**
 * SPEC §2: with artist details from navigation, the artist's header and only their songs, a page at a time; `before`
 * comes between the two (issue 12: the artist's albums), `after` after the songs (issue 25: their other credits). A
 * link from a song names the artist only: their photo is then fetched.
 */
export function ArtistSongsPage({
  artist: passed,
  before,
  after,
}: {
  artist: Artist;
  before?: ReactNode;
  after?: ReactNode;
}) {
  // Always asked for: the artist's own answer carries the caller's stars (issue 28), the one navigation passed does not.
  const details = useQuery(artistQueries.detail(passed.id));
  const artist = passed.image === null && details.data?.id === passed.id ? details.data : passed;
  // Issue 26: shuffled by default, or sorted by the server in the order chosen in the list's headers.
  const [order, setOrder] = useSongOrder('artist');
  const source = useMemo(() => orderedCatalogue(order, artist.id), [order, artist.id]);
  const list = usePagedSongs(source);
  const origin = useMemo(() => ({ artist }), [artist]);
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
          {details.data?.id === artist.id && (
            <ArtistRating artistId={artist.id} name={artist.name} rating={details.data.rating ?? null} />
          )}
        </div>
        <div className="page-header__actions">
          <ShuffleAllButton artistId={artist.id} label={`Shuffle ${artist.name}`} />
          <PlayAllButton
            songs={list.songs}
            source={source}
            nextCursor={list.paging.nextCursor}
            label={`Play ${artist.name}`}
          />
          <StartRadioButton songs={list.songs} label={artist.name} loading={list.query.isPending} />
        </div>
      </header>
      {before}
      <PagedSongList
        list={list}
        label={`Songs by ${artist.name}`}
        origin={origin}
        allowAdd
        ordering={{ kind: 'artist', order, onChange: setOrder }}
      />
      {after}
    </div>
  );
}
