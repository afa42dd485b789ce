// The library the scan corpus (bench/scan-corpus.mjs) lays out, planned from a fixed seed, so the same N always gives
// the same files (and a smaller N the start of a bigger one's): artists with ~8 albums each, albums of 10–12 tracks
// (one in ten on two discs), every file's format, base clip and tags, and each album's cover (embedded, cover.jpg or
// none, a third each). Plain data: the workers and --verify read it.

/** Base clips encoded per format (scan-corpus.mjs), and their lengths: 2, 2.5, 3, 3.5 or 4 s. */
export const CLIPS_PER_FORMAT = 20;
export const clipSeconds = (clip) => 2 + (clip % 5) * 0.5;

/** Formats and their share of albums (and of tracks on the albums that mix formats). */
const FORMAT_WEIGHTS = [
  ['mp3', 35],
  ['flac', 25],
  ['m4a', 15],
  ['ogg', 10],
  ['opus', 15],
];
const MIXED_ALBUMS = 0.15;
const TWO_DISC_ALBUMS = 0.1;
const MUSICBRAINZ_ALBUMS = 0.3;
const SEVERAL_ARTISTS = 0.07;
const FEATURING = 0.07;
const SONGWRITER_CREDITS = 0.1;
/** After each artist, the chance of a compilation ("Various Artists") drawn from the artists so far. */
const COMPILATION_CHANCE = 0.4;
const VARIOUS_ARTISTS = 'Various Artists';
const VARIOUS_ARTISTS_MBID = '89ad4ac3-39f7-470e-963a-56509c546377';

export const GENRES = [
  ['Rock', 18],
  ['Pop', 16],
  ['Electronic', 12],
  ['Hip-Hop', 10],
  ['Jazz', 8],
  ['Classical', 6],
  ['Metal', 5],
  ['Folk', 5],
  ['R&B', 5],
  ['Indie', 5],
  ['Blues', 3],
  ['Country', 3],
  ['Soul', 2],
  ['Reggae', 2],
];

const ADJECTIVES = (
  'Amber Silver Velvet Hollow Electric Golden Crimson Quiet Paper Neon Wild Broken Distant Lunar Northern Static ' +
  'Glass Midnight Scarlet Frozen Burning Gentle Restless Secret Violet Wandering Faded Painted Silent Sunday Copper ' +
  'Ivory Cobalt Emerald Rusty Lonely Bright Shallow Endless Falling Hidden Holy Iron Jade Lucky Modern Nervous ' +
  'Pale Rapid Sacred Tender Urban Vivid Wooden Young Hazy Dusty Sleepy Tidal Solar'
).split(' ');
const NOUNS = (
  'River Harbor Lantern Engine Garden Mirror Signal Canyon Orchard Machine Satellite Comet Highway Meadow Station ' +
  'Tower Island Forest Window Ghost Parade Circus Echo Horizon Kingdom Lighthouse Monsoon Needle Outpost Pilot ' +
  'Prism Radio Rocket Sparrow Thunder Valley Wave Wolf Anchor Bridge Cathedral Desert Ember Falcon Glacier ' +
  'Hurricane Jungle Kite Lagoon Mountain Nebula Oasis Planet Quarry Reef Summit Tide Voyage Winter Zephyr'
).split(' ');
const VERBS = 'Running Dancing Waiting Falling Drifting Chasing Leaving Holding Burning Dreaming Singing Fading'.split(
  ' ',
);
const ENDINGS = ['Home', 'Alone', 'in the Dark', 'Away', 'On', 'for You', 'the Sun', 'Through Time', 'Slowly'];
const TITLE_SUFFIXES = [' (Interlude)', ' (Live)', ' (Acoustic)', ' Pt. 2', ' (Reprise)', ' (Radio Edit)'];
const PHRASES = [
  "Don't Look Back",
  'Why?',
  'Tomorrow Never Comes',
  "It's Only Love",
  'All the Way Down',
  'Say It Again',
  'No More Words',
  'Café au Lait',
  'Über Alles Hinweg',
  'Señorita Luna',
  '1999',
  'Hello, Goodbye, Hello',
];
const FIRST_NAMES = (
  'Ada Ben Clara Dmitri Elena Felix Greta Hugo Iris Jonas Kai Lena Marco Nina Oscar Paula Quinn Rosa Sam Tessa Uma ' +
  'Viktor Wren Xavier Yara Zoë Björn Renée José Łukasz Søren Ólafur Chloé Mateo Aiko Priya Kwame Leila Noor Ines ' +
  'Tomás Anouk Emil Freya Hana Idris Jun Maya Rafael Sven'
).split(' ');
const LAST_NAMES = (
  'Lindqvist Moreau Okafor Tanaka Novak Fischer Castillo Haddad Kowalski Bergström Nakamura Dubois Rossi Silva ' +
  "Jensen Petrov O'Brien McAllister Andersen Bianchi Chen Delgado Eriksen Ferreira Gallagher Hoffmann Ivanova " +
  'Jovanović Kaur Laurent Mendes Nilsen Oyelaran Park Quintero Richter Sato Takahashi Ueda Vargas Weber Yilmaz ' +
  'Zhang Müller Núñez Sørensen Álvarez Kim'
).split(' ');
/** A few names in other scripts, used now and then (each once). */
const OTHER_SCRIPTS = [
  '夜の森',
  '東京ノイズ',
  '月光ラジオ',
  '青い鳥',
  '소나기',
  '하늘빛',
  '北风乐队',
  'Ночной Город',
  'Βόρειος Άνεμος',
  'Niños del Sol',
  'Sigurrós Ljós',
  'Ærø Ekspres',
];
const COMPOSERS = [
  'Johann Sebastian Bach',
  'Wolfgang Amadeus Mozart',
  'Ludwig van Beethoven',
  'Frédéric Chopin',
  'Claude Debussy',
  'Erik Satie',
  'Antonio Vivaldi',
  'Johannes Brahms',
  'Franz Schubert',
  'Pyotr Ilyich Tchaikovsky',
  'Antonín Dvořák',
  'Maurice Ravel',
  'Edvard Grieg',
  'Clara Schumann',
  'Fanny Mendelssohn',
  'Hildegard von Bingen',
];
const FORMS = ['Sonata', 'Nocturne', 'Prelude', 'Étude', 'Symphony', 'Concerto', 'String Quartet', 'Suite'];
const KEYS = ['C major', 'D minor', 'E-flat major', 'F-sharp minor', 'G major', 'A minor', 'B-flat major'];
const TEMPI = ['Allegro', 'Adagio', 'Andante', 'Presto', 'Largo', 'Allegretto', 'Moderato', 'Scherzo'];
const ROMAN = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII'];
const ENSEMBLES = ['Quartet', 'Chamber Orchestra', 'Ensemble', 'Trio', 'Consort', 'Philharmonic'];

/** mulberry32: a small seeded PRNG, [0, 1). */
export function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function plural(noun) {
  if (noun.endsWith('is')) return `${noun.slice(0, -2)}es`;
  if (noun === 'Wolf') return 'Wolves';
  if (noun.endsWith('o')) return `${noun}es`;
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  return `${noun}s`;
}

/** A file or folder name for a tag: no slash or NUL, no leading dot or space, no trailing dot or space, not long. */
export function safeName(text) {
  let name = text
    .replace(/[/\0]/g, '-')
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  while (Buffer.byteLength(name) > 120) name = [...name].slice(0, -1).join('');
  return name === '' ? '_' : name;
}

/**
 * The plan for `files` files: `albums`, each `{ dir, cover: 'embedded' | 'folder' | 'none', coverSeed, tracks }`, a
 * track `{ path, format, clip, serial, tags }` (paths relative to the corpus root, with `/`), its tags `{ title,
 * artist, album, albumArtist, track, trackTotal, disc, discTotal, year, genre, composer?, compilation?, musicbrainz?:
 * { recordingId, trackId, albumId, artistId, albumArtistId } }`.
 */
export function planCorpus(files) {
  const rnd = random(20261127);
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const weighted = (pairs) => {
    let at = rnd() * pairs.reduce((sum, [, weight]) => sum + weight, 0);
    for (const [value, weight] of pairs) if ((at -= weight) < 0) return value;
    return pairs.at(-1)[0];
  };
  const uuid = () => {
    const bytes = Array.from({ length: 16 }, () => Math.floor(rnd() * 256));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
  const person = () => `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}`;

  const artistNames = new Set([VARIOUS_ARTISTS]);
  const otherScripts = [...OTHER_SCRIPTS];
  function artistName(genre) {
    for (;;) {
      const roll = rnd();
      let name;
      if (roll < 0.02 && otherScripts.length > 0) name = otherScripts.shift();
      else if (genre === 'Classical') {
        name = rnd() < 0.5 ? person() : `The ${pick(LAST_NAMES)} ${pick(ENSEMBLES)}`;
      } else if (roll < 0.35) name = person();
      else if (roll < 0.65) name = `The ${pick(ADJECTIVES)} ${plural(pick(NOUNS))}`;
      else if (roll < 0.9) name = `${pick(ADJECTIVES)} ${pick(NOUNS)}`;
      else name = `${pick(FIRST_NAMES)} & the ${plural(pick(NOUNS))}`;
      if (!artistNames.has(name)) {
        artistNames.add(name);
        return name;
      }
    }
  }

  function songTitle() {
    const roll = rnd();
    let title;
    if (roll < 0.3) title = `${pick(ADJECTIVES)} ${pick(NOUNS)}`;
    else if (roll < 0.45) title = `The ${pick(NOUNS)}`;
    else if (roll < 0.6) title = `${pick(NOUNS)} of ${plural(pick(NOUNS))}`;
    else if (roll < 0.8) title = `${pick(VERBS)} ${pick(ENDINGS)}`;
    else if (roll < 0.9) title = pick(NOUNS);
    else title = pick(PHRASES);
    return rnd() < 0.06 ? title + pick(TITLE_SUFFIXES) : title;
  }

  function albumTitle(genre, composer) {
    if (genre === 'Classical') return `${composer.split(' ').at(-1)}: ${plural(pick(FORMS))}`;
    const roll = rnd();
    if (roll < 0.35) return `${pick(ADJECTIVES)} ${plural(pick(NOUNS))}`;
    if (roll < 0.55) return `The ${pick(ADJECTIVES)} ${pick(NOUNS)}`;
    if (roll < 0.7) return `${pick(NOUNS)} of ${pick(NOUNS)}`;
    if (roll < 0.85) return pick(NOUNS);
    return songTitle();
  }

  const classicalTitle = (number) =>
    `${pick(FORMS)} No. ${1 + Math.floor(rnd() * 20)} in ${pick(KEYS)}, Op. ${10 + Math.floor(rnd() * 90)}: ` +
    `${ROMAN[(number - 1) % ROMAN.length]}. ${pick(TEMPI)}`;

  const artists = [];
  const albums = [];
  const dirs = new Set();
  const vaTitles = new Set();
  let planned = 0;

  function addAlbum({ albumArtist, artistOf, title, year, genreOf, mbid, composer, compilation }) {
    const trackCount = Math.min(10 + Math.floor(rnd() * 3), files - planned);
    const discTotal = rnd() < TWO_DISC_ALBUMS && trackCount >= 6 ? 2 : 1;
    const perDisc = Math.ceil(trackCount / discTotal);
    const mixed = rnd() < MIXED_ALBUMS;
    const albumFormat = weighted(FORMAT_WEIGHTS);
    const coverRoll = rnd();
    const cover = coverRoll < 1 / 3 ? 'embedded' : coverRoll < 2 / 3 ? 'folder' : 'none';
    const musicbrainz = rnd() < MUSICBRAINZ_ALBUMS ? { albumId: uuid(), albumArtistId: mbid } : null;
    let dir = `${safeName(albumArtist)}/${safeName(title)} (${year})`;
    for (let n = 2; dirs.has(dir); n++) dir = `${safeName(albumArtist)}/${safeName(title)} (${year}) [${n}]`;
    dirs.add(dir);
    const tracks = [];
    for (let i = 0; i < trackCount; i++) {
      const disc = Math.floor(i / perDisc) + 1;
      const track = (i % perDisc) + 1;
      const discTracks = Math.min(perDisc, trackCount - (disc - 1) * perDisc);
      const format = mixed ? weighted(FORMAT_WEIGHTS) : albumFormat;
      const { artist, artistId, genre } = artistOf();
      const songTitleText = composer === null ? songTitle() : classicalTitle(track);
      const tags = {
        title: songTitleText,
        artist,
        album: title,
        albumArtist,
        track,
        trackTotal: discTracks,
        disc,
        discTotal,
        year,
        genre: genreOf(genre),
      };
      if (composer !== null) tags.composer = composer;
      else if (rnd() < SONGWRITER_CREDITS) tags.composer = rnd() < 0.5 ? `${person()}, ${person()}` : person();
      if (compilation) tags.compilation = true;
      if (musicbrainz !== null) {
        tags.musicbrainz = { recordingId: uuid(), trackId: uuid(), ...musicbrainz, artistId };
      }
      const number = String(track).padStart(2, '0');
      const prefix = discTotal > 1 ? `${disc}-${number}` : number;
      tracks.push({
        path: `${dir}/${prefix} ${safeName(songTitleText)}.${format === 'm4a' ? 'm4a' : format}`,
        format,
        clip: Math.floor(rnd() * CLIPS_PER_FORMAT),
        serial: Math.floor(rnd() * 0x100000000),
        tags,
      });
    }
    albums.push({ dir, cover, coverSeed: albums.length, tracks });
    planned += trackCount;
  }

  /** The artist credit of a track on `main`'s album: alone, "A; B" or "A feat. B". */
  function credit(main) {
    const roll = rnd();
    if (artists.length < 2 || roll >= SEVERAL_ARTISTS + FEATURING) return main.name;
    let other = pick(artists);
    while (other === main) other = pick(artists);
    return roll < SEVERAL_ARTISTS ? `${main.name}; ${other.name}` : `${main.name} feat. ${other.name}`;
  }

  while (planned < files) {
    const genre = weighted(GENRES);
    const artist = { name: artistName(genre), genre, mbid: uuid(), year: 1960 + Math.floor(rnd() * 56) };
    artists.push(artist);
    const albumCount = 6 + Math.floor(rnd() * 5);
    const titles = new Set();
    let year = artist.year;
    for (let a = 0; a < albumCount && planned < files; a++) {
      const composer = genre === 'Classical' ? pick(COMPOSERS) : null;
      let title = albumTitle(genre, composer);
      for (let volume = 2; titles.has(title); volume++) title = `${albumTitle(genre, composer)}, Vol. ${volume}`;
      titles.add(title);
      const albumGenre = rnd() < 0.85 ? genre : weighted(GENRES);
      addAlbum({
        albumArtist: artist.name,
        artistOf: () => ({ artist: credit(artist), artistId: artist.mbid }),
        title,
        year: Math.min(year, 2025),
        genreOf: () => albumGenre,
        mbid: artist.mbid,
        composer,
        compilation: false,
      });
      year += 1 + Math.floor(rnd() * 4);
    }
    if (artists.length >= 5 && planned < files && rnd() < COMPILATION_CHANCE) {
      let title;
      let year;
      // A "Best of <genre> <year>" compilation is tagged with that genre throughout.
      let theme = null;
      do {
        const roll = rnd();
        year = 1975 + Math.floor(rnd() * 51);
        theme = null;
        if (roll < 0.4) title = `Now That's ${pick(ADJECTIVES)}, Vol. ${1 + Math.floor(rnd() * 40)}`;
        else if (roll < 0.7) {
          theme = weighted(GENRES.filter(([genre]) => genre !== 'Classical'));
          title = `Best of ${theme} ${year}`;
        } else title = `${pick(ADJECTIVES)} ${plural(pick(NOUNS))}: A Collection`;
      } while (vaTitles.has(title));
      vaTitles.add(title);
      addAlbum({
        albumArtist: VARIOUS_ARTISTS,
        artistOf: () => {
          const who = pick(artists);
          return { artist: credit(who), artistId: who.mbid, genre: who.genre };
        },
        title,
        year,
        genreOf: (genre) => theme ?? (genre === 'Classical' ? 'Pop' : genre),
        mbid: VARIOUS_ARTISTS_MBID,
        composer: null,
        compilation: true,
      });
    }
  }
  return { albums, artists: artists.length };
}
