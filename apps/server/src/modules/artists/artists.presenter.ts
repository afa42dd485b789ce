import { imageUrl } from '@tonearm/contract';
import type { Artist } from '@tonearm/contract';
import type { ArtistWithSongs } from './artists.repository.js';

export const ARTIST_IMAGE_WIDTH = 300;

/** The Artist JSON of DESIGN §4: `songs` holds the ids of the artist's songs. */
export function toArtistJson(artist: ArtistWithSongs): Artist {
  return {
    id: artist.id,
    name: artist.name,
    image: artist.image_key === null ? null : imageUrl(artist.image_key, ARTIST_IMAGE_WIDTH),
    songs: artist.songIds,
  };
}
