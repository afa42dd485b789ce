import { UNKNOWN_ARTIST, type Song } from '@tonearm/contract';
import { audioUrl, imageUrl } from '../media/media.service.js';
import type { SongListRow } from './songs.repository.js';

/** Width of the cover thumbnail a song list shows. */
export const SONG_COVER_WIDTH = 300;

/** What the requesting user brings to a Song answer: their likes and their own playlists. */
export interface ViewerMarks {
  liked: ReadonlySet<number>;
  playlists: ReadonlyMap<number, readonly number[]>;
}

export const NO_MARKS: ViewerMarks = { liked: new Set(), playlists: new Map() };

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
  };
}
