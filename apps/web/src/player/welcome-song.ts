import type { Song } from '@tonearm/contract';

/**
 * SPEC §3 default welcome song. Its audio and cover are bundled assets in apps/web/public (the chime is made by
 * scripts/generate-welcome-chime.mjs), so it plays before any catalogue exists and needs no session.
 */
export const WELCOME_SONG: Song = {
  id: 0,
  genre: 'Melody',
  name: 'Welcome',
  link: '/welcome-chime.wav',
  imgLink: '/welcome-cover.svg',
  artistId: null,
  artistName: 'Tonearm',
  likeSong: false,
  durationMs: 3500,
  playlistIds: [],
  albumId: null,
  albumName: null,
  trackNumber: null,
  discNumber: null,
  year: null,
  genreTag: null,
  audioFormat: null,
  replayGainDb: null,
  replayGainPeak: null,
  available: true,
  artists: [],
  displayArtist: 'Tonearm',
  contributors: [],
  rating: null,
  plays: 0,
};

export function isWelcomeSong(song: Song): boolean {
  return song.id === WELCOME_SONG.id;
}
