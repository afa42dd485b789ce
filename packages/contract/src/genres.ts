/** SPEC §5 genre options, in the order the form shows them. */
export const GENRES = [
  'Pop',
  'Rock',
  'Hip Hop / Rap',
  'R&B / Soul',
  'Electronic / EDM',
  'Alternative Rock',
  'Indie Pop / Rock',
  'Lo-fi',
  'Classical',
  'Opera',
  'Folk',
  'Country',
  'Bluegrass',
  'Latin',
  'Afrobeat',
  'Reggae',
  'Dancehall',
  'Disco / Funk',
  'Trap',
  'Metal',
  'Hard Rock',
  'Punk Rock',
  'K-pop',
  'J-pop',
  'Bollywood',
  'Ambient',
  'Experimental',
] as const;

export type Genre = (typeof GENRES)[number];

export function isGenre(value: string): value is Genre {
  return (GENRES as readonly string[]).includes(value);
}
