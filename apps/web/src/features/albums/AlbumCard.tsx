import type { AlbumSummary } from '@tonearm/contract';
import { Link } from 'react-router';
import { Cover } from '../../ui/Cover.js';
import { albumHref } from './queries.js';

/** What an artist's placeholder album ("Unknown album") holds. */
export const PLACEHOLDER_META = 'Songs without an album';
import '../../ui/skeleton.css';
import '../../ui/tiles.css';

/**
 * What a card says under an album's name: the year when known (a placeholder album says what it holds, issue 25), and
 * (unless the grid is one artist's) the artist.
 */
export function albumMeta(album: AlbumSummary, withArtist: boolean): string {
  const kind = album.placeholder ? PLACEHOLDER_META : album.year === null ? 'Album' : String(album.year);
  return [kind, withArtist ? album.artistName : null].filter((part) => part !== null).join(' · ');
}

/** An album tile: cover, name and year; choosing it opens the album page. */
export function AlbumCard({ album, withArtist = true }: { album: AlbumSummary; withArtist?: boolean }) {
  return (
    <li className="tile tile--album">
      <Link to={albumHref(album.id)} className="tile__link" aria-label={album.name}>
        <span className="tile__art">
          <Cover src={album.imgLink} width={300} className="tile__cover" />
        </span>
        <span className="tile__text">
          <span className="tile__name">{album.name}</span>
          <span className="tile__meta">{albumMeta(album, withArtist)}</span>
        </span>
      </Link>
    </li>
  );
}

/** A grid of album cards. */
export function AlbumGrid({
  albums,
  label,
  withArtist = true,
}: {
  albums: readonly AlbumSummary[];
  label: string;
  withArtist?: boolean;
}) {
  return (
    <ul className="tile-grid" aria-label={label}>
      {albums.map((album) => (
        <AlbumCard key={album.id} album={album} withArtist={withArtist} />
      ))}
    </ul>
  );
}

export function AlbumSkeletons({ count = 6 }: { count?: number }) {
  return (
    <ul className="tile-grid" aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        <li key={i} className="tile tile--skeleton">
          <span className="skeleton skeleton--square" />
          <span className="skeleton skeleton--line" />
        </li>
      ))}
    </ul>
  );
}
