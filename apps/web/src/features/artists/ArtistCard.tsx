import type { Artist } from '@tonearm/contract';
import { Link } from 'react-router';
import { artistHref } from '../../lib/paths.js';
import { Cover } from '../../ui/Cover.js';
import '../../ui/skeleton.css';
import '../../ui/tiles.css';

/** Choosing an artist opens their page at its own address, the artist passed along to show at once. */
export function ArtistCard({ artist }: { artist: Artist }) {
  const count = artist.songs.length;
  return (
    <li className="tile tile--artist">
      <Link to={artistHref(artist.id)} state={{ artist }} className="tile__link" aria-label={artist.name}>
        <span className="tile__art">
          <Cover src={artist.image} width={300} shape="circle" className="tile__cover" />
        </span>
        <span className="tile__text">
          <span className="tile__name">{artist.name}</span>
          <span className="tile__meta">
            Artist · {count} {count === 1 ? 'song' : 'songs'}
          </span>
        </span>
      </Link>
    </li>
  );
}

export function ArtistSkeletons({ count = 6 }: { count?: number }) {
  return (
    <ul className="tile-grid" aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        <li key={i} className="tile tile--skeleton">
          <span className="skeleton skeleton--circle" />
          <span className="skeleton skeleton--line" />
        </li>
      ))}
    </ul>
  );
}
