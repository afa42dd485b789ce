import type { Artist } from '@tonearm/contract';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { Paths } from '../../lib/paths.js';
import { Cover } from '../../ui/Cover.js';
import { ArrowLeftIcon } from '../../ui/icons.js';
import { listStatus, SongList } from './SongList.js';
import { countLabel, PlayAllButton } from './SongsHeader.js';
import { useArtistSongs } from './useSongs.js';
import '../../ui/page.css';

/** SPEC §2: with artist details from navigation, the artist's header and only their songs. */
export function ArtistSongsPage({ artist }: { artist: Artist }) {
  const query = useArtistSongs(artist.id);
  const origin = useMemo(() => ({ artist }), [artist]);
  const songs = query.data ?? [];
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
          {query.data && <p className="page-header__meta">{countLabel(songs.length)}</p>}
        </div>
        <PlayAllButton songs={songs} label={`Play ${artist.name}`} />
      </header>
      <SongList
        songs={songs}
        label={`Songs by ${artist.name}`}
        status={listStatus(query)}
        origin={origin}
        allowAdd
        onRetry={() => void query.refetch()}
      />
    </div>
  );
}
