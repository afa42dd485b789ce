import type { Artist } from '@tonearm/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { artistHref } from '../../lib/paths.js';

/** An artist a song or album names: enough to open their page, which fetches the rest (their photo). */
export interface NamedArtist {
  id: number;
  name: string;
}

/**
 * The navigation state of an artist's page (SPEC §2: /dashboard/songs with the artist's details); their own address
 * (issue 26) reads it too, to show their name before their details arrive.
 */
export function artistPageState(artist: NamedArtist | Artist): { artist: Artist } {
  return { artist: 'songs' in artist ? artist : { id: artist.id, name: artist.name, image: null, songs: [] } };
}

/** The artist's name (or `children`), linking to their page at its own address, `/dashboard/artist/:id`. */
export function ArtistLink({
  artist,
  className = 'artist-link',
  children,
}: {
  artist: NamedArtist | Artist;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <Link to={artistHref(artist.id)} state={artistPageState(artist)} className={className}>
      {children ?? artist.name}
    </Link>
  );
}
