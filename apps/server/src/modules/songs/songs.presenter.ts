import { UNKNOWN_ARTIST, type Song, type SongPage, audioUrl, imageUrl } from '@tonearm/contract';
import type { SongPageResult } from './song-pages.service.js';
import type { SongListRow } from './songs.repository.js';
import type { SongListing, ViewerMarks } from './songs.service.js';

/** Width of the cover thumbnail a song list shows. */
export const SONG_COVER_WIDTH = 300;

/** A song's artists (the main one first), its display artist and its contributors. */
function peopleOf(row: SongListRow): Pick<Song, 'artists' | 'displayArtist' | 'contributors'> {
  const credits = row.credits ?? [];
  const main = row.artist_id === null ? [] : [{ id: row.artist_id, name: row.artist_name ?? UNKNOWN_ARTIST }];
  const others = credits
    .filter((credit) => credit.role === 'artist')
    .map((credit) => ({ id: credit.artist_id, name: credit.artist_name }));
  const contributors = credits
    .filter((credit) => credit.role !== 'artist' && credit.role !== 'albumartist')
    .map((credit) => ({
      role: credit.role,
      subRole: credit.sub_role === '' ? null : credit.sub_role,
      artistId: credit.artist_id,
      artistName: credit.artist_name,
    }));
  return {
    artists: [...main, ...others],
    displayArtist: row.display_artist ?? row.artist_name ?? UNKNOWN_ARTIST,
    contributors,
  };
}

/** The Song JSON of DESIGN §4. */
export function toSongJson(row: SongListRow, marks: ViewerMarks): Song {
  return {
    id: row.id,
    name: row.name,
    genre: row.genre,
    link: audioUrl(row.audio_key),
    imgLink: row.image_key === null ? '' : imageUrl(row.image_key, SONG_COVER_WIDTH),
    artistId: row.artist_id,
    artistName: row.artist_name ?? UNKNOWN_ARTIST,
    likeSong: marks.liked.has(row.id),
    durationMs: row.duration_ms,
    playlistIds: [...(marks.playlists.get(row.id) ?? [])],
    albumId: row.album_id,
    albumName: row.album_name,
    trackNumber: row.track_number,
    discNumber: row.disc_number,
    year: row.year,
    genreTag: row.genre_tag === row.genre ? null : row.genre_tag,
    audioFormat: row.format,
    replayGainDb: row.replay_gain_track_db,
    replayGainPeak: row.replay_gain_track_peak,
    available: row.missing_since === null,
    ...peopleOf(row),
    plays: row.play_count,
    rating: marks.ratings.get(row.id) ?? null,
  };
}

export function toSongsJson({ rows, marks }: SongListing): Song[] {
  return rows.map((row) => toSongJson(row, marks));
}

/** A keyset page of songs (GET /api/songs/page, liked, a playlist's songs). */
export function toSongPageJson({ listing, nextCursor, total, seed }: SongPageResult): SongPage {
  return { items: toSongsJson(listing), nextCursor, total, seed };
}
