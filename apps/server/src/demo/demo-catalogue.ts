import type { Genre } from '@tonearm/contract';
import { renderArtistImage, renderCover, type ArtStyle } from './artwork.js';
import { renderSong, type SongSound } from './synth.js';
import { encodeWav } from './wav.js';

/** 22050 Hz mono 16-bit: plays in every browser and keeps the whole demo catalogue under 20 MB. */
export const DEMO_SAMPLE_RATE = 22_050;

export interface DemoArtistSpec {
  name: string;
  style: ArtStyle;
  seed: number;
}

export interface DemoAlbumSpec {
  name: string;
  artistName: string;
  year: number;
  /** The cover's pattern seed (its style is the artist's). */
  seed: number;
}

export interface DemoSongSpec {
  name: string;
  genre: Genre;
  artistName: string;
  /** The album it is on (one of DEMO_ALBUMS, by the same artist), and where. */
  album: string;
  track: number;
  sound: SongSound;
}

/** Invented artists; any likeness to a real band is a coincidence of pleasant words. */
export const DEMO_ARTISTS: readonly DemoArtistSpec[] = [
  { name: 'Harbor Lights Collective', style: 'grid', seed: 101 },
  { name: 'Marigold Tapes', style: 'sunset', seed: 202 },
  { name: 'The Paper Foxes', style: 'shards', seed: 303 },
  { name: 'Velvet Meridian', style: 'rings', seed: 404 },
  { name: 'Slow Tide Ensemble', style: 'waves', seed: 505 },
];

/**
 * Five albums, one per artist, invented like them: the demo catalogue is made of albums, as a library of tagged files is,
 * so a fresh install shows albums on the home page and in every Subsonic app that browses by album (issue 25).
 */
export const DEMO_ALBUMS: readonly DemoAlbumSpec[] = [
  { name: 'Signal & Shore', artistName: 'Harbor Lights Collective', year: 2021, seed: 111 },
  { name: 'Cardboard Planets', artistName: 'Marigold Tapes', year: 2019, seed: 222 },
  { name: 'Paper Kites', artistName: 'The Paper Foxes', year: 2018, seed: 333 },
  { name: 'After Hours Satin', artistName: 'Velvet Meridian', year: 2020, seed: 444 },
  { name: 'Low Tide Hymns', artistName: 'Slow Tide Ensemble', year: 2022, seed: 555 },
];

/** Twelve songs, each with its own key, tempo, timbre and groove, so no two sound alike; in album order. */
export const DEMO_SONGS: readonly DemoSongSpec[] = [
  {
    name: 'Night Ferry',
    genre: 'Electronic / EDM',
    artistName: 'Harbor Lights Collective',
    album: 'Signal & Shore',
    track: 1,
    sound: song(11, 124, 57, 'minor', [0, 5, 2, 6], 32, 'saw', 'saw', 'eighths', 'four-on-floor', { echo: true }),
  },
  {
    name: 'Signal Fires',
    genre: 'Electronic / EDM',
    artistName: 'Harbor Lights Collective',
    album: 'Signal & Shore',
    track: 2,
    sound: song(12, 128, 53, 'minor', [0, 3, 4, 0], 30, 'square', 'fm', 'eighths', 'four-on-floor'),
  },
  {
    name: 'Glasshouse',
    genre: 'Pop',
    artistName: 'Harbor Lights Collective',
    album: 'Signal & Shore',
    track: 3,
    sound: song(13, 110, 60, 'major', [0, 4, 5, 3], 28, 'fm', 'triangle', 'root-fifth', 'backbeat'),
  },
  {
    name: 'Rainy Window Study',
    genre: 'Lo-fi',
    artistName: 'Marigold Tapes',
    album: 'Cardboard Planets',
    track: 1,
    sound: song(21, 76, 50, 'dorian', [0, 3, 1, 4], 36, 'triangle', 'fm', 'whole', 'half-time', {
      swing: 0.28,
      lofi: true,
    }),
  },
  {
    name: 'Cardboard Planets',
    genre: 'Lo-fi',
    artistName: 'Marigold Tapes',
    album: 'Cardboard Planets',
    track: 2,
    sound: song(22, 84, 51, 'major', [1, 4, 0, 5], 34, 'fm', 'sine', 'root-fifth', 'half-time', {
      swing: 0.22,
      lofi: true,
      echo: true,
    }),
  },
  {
    name: 'Late Bus Home',
    genre: 'Hip Hop / Rap',
    artistName: 'Marigold Tapes',
    album: 'Cardboard Planets',
    track: 3,
    sound: song(23, 90, 55, 'minor', [0, 5, 3, 4], 30, 'sine', 'triangle', 'syncopated', 'backbeat', { swing: 0.18 }),
  },
  {
    name: 'Paper Kites',
    genre: 'Indie Pop / Rock',
    artistName: 'The Paper Foxes',
    album: 'Paper Kites',
    track: 1,
    sound: song(31, 136, 55, 'major', [0, 4, 5, 3], 26, 'square', 'saw', 'eighths', 'backbeat'),
  },
  {
    name: 'Borrowed Sunlight',
    genre: 'Folk',
    artistName: 'The Paper Foxes',
    album: 'Paper Kites',
    track: 2,
    sound: song(32, 100, 62, 'major', [0, 3, 0, 4], 33, 'triangle', 'triangle', 'root-fifth', 'none'),
  },
  {
    name: 'Mirrorball Avenue',
    genre: 'Disco / Funk',
    artistName: 'Velvet Meridian',
    album: 'After Hours Satin',
    track: 1,
    sound: song(41, 118, 52, 'dorian', [0, 3, 0, 3], 31, 'saw', 'fm', 'syncopated', 'funk'),
  },
  {
    name: 'Satin Engine',
    genre: 'Disco / Funk',
    artistName: 'Velvet Meridian',
    album: 'After Hours Satin',
    track: 2,
    sound: song(42, 112, 58, 'mixolydian', [0, 6, 3, 0], 29, 'square', 'triangle', 'syncopated', 'four-on-floor'),
  },
  {
    name: 'Low Tide Hymn',
    genre: 'Ambient',
    artistName: 'Slow Tide Ensemble',
    album: 'Low Tide Hymns',
    track: 1,
    sound: song(51, 66, 53, 'major', [0, 5, 3, 4], 38, 'sine', 'sine', 'whole', 'none', { echo: true }),
  },
  {
    name: 'Clockwork Garden',
    genre: 'Classical',
    artistName: 'Slow Tide Ensemble',
    album: 'Low Tide Hymns',
    track: 2,
    sound: song(52, 92, 48, 'minor', [0, 3, 4, 0], 35, 'fm', 'triangle', 'arpeggio', 'none'),
  },
];

export interface DemoArtist {
  name: string;
  /** 640×640 JPEG. */
  image: Buffer;
}

export interface DemoAlbum {
  name: string;
  artistName: string;
  year: number;
  /** 640×640 JPEG. */
  cover: Buffer;
}

export interface DemoSong {
  name: string;
  genre: Genre;
  artistName: string;
  album: string;
  track: number;
  year: number;
  /** 16-bit PCM mono WAV at DEMO_SAMPLE_RATE. */
  audio: Buffer;
  /** 640×640 JPEG: its album's cover, as the artwork a tagged file carries. */
  cover: Buffer;
}

export interface DemoCatalogue {
  artists: DemoArtist[];
  albums: DemoAlbum[];
  songs: DemoSong[];
}

/**
 * Renders the demo catalogue seeded on first start: every byte is generated here, deterministically (same bytes on
 * every run), in about a second. Feed the files through `stageAudio`/`stageImage` like any upload.
 */
export async function buildDemoCatalogue(): Promise<DemoCatalogue> {
  const artistStyles = new Map(DEMO_ARTISTS.map((artist) => [artist.name, artist.style]));
  // sharp renders the pictures on libuv threads while the main thread synthesizes the audio.
  const artistImages = Promise.all(
    DEMO_ARTISTS.map((artist) => renderArtistImage(artist.name, artist.style, artist.seed)),
  );
  const covers = Promise.all(
    DEMO_ALBUMS.map((album) =>
      renderCover(album.name, album.artistName, artistStyles.get(album.artistName) ?? 'waves', album.seed),
    ),
  );
  const audio = DEMO_SONGS.map((spec) => renderDemoAudio(spec));
  const [images, coverImages] = await Promise.all([artistImages, covers]);
  const albums = DEMO_ALBUMS.map((album, index) => ({
    name: album.name,
    artistName: album.artistName,
    year: album.year,
    cover: at(coverImages, index),
  }));
  const albumOf = (spec: DemoSongSpec) => {
    const album = albums.find((one) => one.name === spec.album && one.artistName === spec.artistName);
    if (album === undefined) throw new Error(`The demo song ${spec.name} names no demo album of its artist`);
    return album;
  };
  return {
    artists: DEMO_ARTISTS.map((artist, index) => ({ name: artist.name, image: at(images, index) })),
    albums,
    songs: DEMO_SONGS.map((spec, index) => ({
      name: spec.name,
      genre: spec.genre,
      artistName: spec.artistName,
      album: spec.album,
      track: spec.track,
      year: albumOf(spec).year,
      audio: at(audio, index),
      cover: albumOf(spec).cover,
    })),
  };
}

/** One demo song as a WAV file. */
export function renderDemoAudio(spec: DemoSongSpec): Buffer {
  return encodeWav(renderSong(spec.sound, DEMO_SAMPLE_RATE), DEMO_SAMPLE_RATE);
}

function song(
  seed: number,
  bpm: number,
  tonic: number,
  mode: SongSound['mode'],
  progression: number[],
  seconds: number,
  lead: SongSound['lead'],
  pad: SongSound['pad'],
  bass: SongSound['bass'],
  drums: SongSound['drums'],
  colour: Pick<SongSound, 'swing' | 'echo' | 'lofi'> = {},
): SongSound {
  return { seed, bpm, tonic, mode, progression, seconds, lead, pad, bass, drums, ...colour };
}

function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`Missing demo item ${index}`);
  return item;
}
