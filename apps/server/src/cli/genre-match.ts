import { GENRES, type Genre } from '@tonearm/contract';

/** Lower-case letters and digits only: "Hip-Hop", "hip hop" and "HipHop" all read "hiphop". */
function key(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** Common tag spellings of the catalogue genres that neither the full name nor one of its halves covers. */
const ALIASES: Readonly<Record<string, Genre>> = {
  rnb: 'R&B / Soul',
  randb: 'R&B / Soul',
  rhythmandblues: 'R&B / Soul',
  dance: 'Electronic / EDM',
  house: 'Electronic / EDM',
  techno: 'Electronic / EDM',
  trance: 'Electronic / EDM',
  electronica: 'Electronic / EDM',
  indie: 'Indie Pop / Rock',
  indierock: 'Indie Pop / Rock',
  alternative: 'Alternative Rock',
  altrock: 'Alternative Rock',
  heavymetal: 'Metal',
  punk: 'Punk Rock',
  lofihiphop: 'Lo-fi',
  classic: 'Classical',
  afrobeats: 'Afrobeat',
  kpop: 'K-pop',
  jpop: 'J-pop',
};

function buildIndex(): Map<string, Genre> {
  const index = new Map<string, Genre>();
  for (const genre of GENRES) index.set(key(genre), genre);
  // "Hip Hop / Rap" is also found as "Hip Hop" or "Rap", unless a half is a genre of its own ("Rock").
  for (const genre of GENRES) {
    for (const half of genre.split('/')) {
      const halfKey = key(half);
      if (halfKey !== '' && !index.has(halfKey)) index.set(halfKey, genre);
    }
  }
  for (const [alias, genre] of Object.entries(ALIASES)) if (!index.has(alias)) index.set(alias, genre);
  return index;
}

const INDEX = buildIndex();

/** The catalogue genre (SPEC §5) a tag's genre text names, or null when it names none of them. */
export function matchGenre(text: string): Genre | null {
  return INDEX.get(key(text)) ?? null;
}
