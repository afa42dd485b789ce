import { GENRES, type Genre } from '@tonearm/contract';

/** Lower-case letters and digits only: "Hip-Hop", "hip hop" and "HipHop" all read "hiphop". */
function key(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/**
 * Tag genres outside SPEC §5's list, by the closest listed genre (docs/genres.md shows this table; a test keeps the
 * two the same). Spellings are compared as `key` reads them. A tag none of these (nor a listed genre, nor one half of
 * one) names is looked up word by word, last word first: "Melodic Death Metal" is Metal, "Deep House" is Electronic.
 */
export const GENRE_MAP: Readonly<Record<string, Genre>> = {
  // Spellings of listed genres.
  rnb: 'R&B / Soul',
  randb: 'R&B / Soul',
  rhythmandblues: 'R&B / Soul',
  hiphop: 'Hip Hop / Rap',
  lofihiphop: 'Lo-fi',
  kpop: 'K-pop',
  jpop: 'J-pop',
  afrobeats: 'Afrobeat',
  classic: 'Classical',
  indie: 'Indie Pop / Rock',
  indierock: 'Indie Pop / Rock',
  indiepop: 'Indie Pop / Rock',
  alternative: 'Alternative Rock',
  altrock: 'Alternative Rock',
  heavymetal: 'Metal',
  punk: 'Punk Rock',
  // Pop and its neighbours.
  synthpop: 'Pop',
  electropop: 'Pop',
  dancepop: 'Pop',
  schlager: 'Pop',
  chanson: 'Pop',
  // Rock's branches.
  classicrock: 'Rock',
  progressiverock: 'Rock',
  psychedelic: 'Rock',
  rockabilly: 'Rock',
  shoegaze: 'Alternative Rock',
  grunge: 'Alternative Rock',
  postrock: 'Alternative Rock',
  britpop: 'Indie Pop / Rock',
  dreampop: 'Indie Pop / Rock',
  hardcore: 'Punk Rock',
  poppunk: 'Punk Rock',
  emo: 'Punk Rock',
  // Black American music the list has no heading of its own for.
  soul: 'R&B / Soul',
  neosoul: 'R&B / Soul',
  motown: 'R&B / Soul',
  gospel: 'R&B / Soul',
  blues: 'R&B / Soul',
  jazz: 'R&B / Soul',
  swing: 'R&B / Soul',
  grime: 'Hip Hop / Rap',
  drill: 'Trap',
  // Electronic music.
  dance: 'Electronic / EDM',
  house: 'Electronic / EDM',
  techno: 'Electronic / EDM',
  trance: 'Electronic / EDM',
  electronica: 'Electronic / EDM',
  electro: 'Electronic / EDM',
  dubstep: 'Electronic / EDM',
  drumandbass: 'Electronic / EDM',
  dnb: 'Electronic / EDM',
  jungle: 'Electronic / EDM',
  breakbeat: 'Electronic / EDM',
  idm: 'Electronic / EDM',
  synthwave: 'Electronic / EDM',
  downtempo: 'Electronic / EDM',
  trip: 'Electronic / EDM',
  triphop: 'Electronic / EDM',
  chillhop: 'Lo-fi',
  chillout: 'Ambient',
  newage: 'Ambient',
  meditation: 'Ambient',
  drone: 'Ambient',
  // Art music.
  baroque: 'Classical',
  orchestral: 'Classical',
  symphony: 'Classical',
  chamber: 'Classical',
  choral: 'Classical',
  soundtrack: 'Classical',
  score: 'Classical',
  // Folk and country.
  singersongwriter: 'Folk',
  acoustic: 'Folk',
  celtic: 'Folk',
  polka: 'Folk',
  world: 'Folk',
  americana: 'Country',
  // Latin America, Africa and the Caribbean.
  salsa: 'Latin',
  reggaeton: 'Latin',
  bachata: 'Latin',
  cumbia: 'Latin',
  tango: 'Latin',
  bossanova: 'Latin',
  samba: 'Latin',
  flamenco: 'Latin',
  afropop: 'Afrobeat',
  highlife: 'Afrobeat',
  amapiano: 'Afrobeat',
  ska: 'Reggae',
  dub: 'Reggae',
  // Asia.
  anime: 'J-pop',
  filmi: 'Bollywood',
  bhangra: 'Bollywood',
  // The rest.
  noise: 'Experimental',
  avantgarde: 'Experimental',
  industrial: 'Experimental',
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
  for (const [alias, genre] of Object.entries(GENRE_MAP)) if (!index.has(alias)) index.set(alias, genre);
  return index;
}

const INDEX = buildIndex();

/** The catalogue genre (SPEC §5) a tag's genre text names exactly or by a listed spelling, or null. */
export function matchGenre(text: string): Genre | null {
  return INDEX.get(key(text)) ?? null;
}

/**
 * The catalogue genre closest to a tag's genre text: matchGenre, else the first of its word pairs and then words,
 * from the last, that names one ("Progressive Death Metal" → Metal). Null when nothing in it does.
 */
export function closestGenre(text: string): Genre | null {
  const exact = matchGenre(text);
  if (exact !== null) return exact;
  const words = text
    .split(/[^\p{L}\p{N}&]+/u)
    .map(key)
    .filter((word) => word !== '');
  for (let index = words.length - 2; index >= 0; index -= 1) {
    const pair = INDEX.get(`${words[index]}${words[index + 1]}`);
    if (pair !== undefined) return pair;
  }
  for (let index = words.length - 1; index >= 0; index -= 1) {
    const word = INDEX.get(words[index] ?? '');
    if (word !== undefined) return word;
  }
  return null;
}
