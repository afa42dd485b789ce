import { UNKNOWN_ARTIST, type Album, type AlbumPage, type AlbumSummary, imageUrl } from '@tonearm/contract';
import { SONG_COVER_WIDTH, toSongsJson } from '../songs/songs.presenter.js';
import type { AlbumListRow } from './albums.repository.js';
import type { AlbumPageResult, AlbumWithSongs } from './albums.service.js';

/** The cover's width on an album's own page (lists use the song lists' thumbnail). */
export const ALBUM_COVER_WIDTH = 640;

function summary(row: AlbumListRow, coverWidth: typeof SONG_COVER_WIDTH | typeof ALBUM_COVER_WIDTH): AlbumSummary {
  return {
    id: row.id,
    name: row.name,
    artistId: row.artist_id,
    artistName: row.artist_name ?? UNKNOWN_ARTIST,
    year: row.year,
    imgLink: row.image_key === null ? '' : imageUrl(row.image_key, coverWidth),
    songCount: row.song_count,
    durationMs: row.duration_ms,
    placeholder: row.is_placeholder === 1,
  };
}

export function toAlbumSummaryJson(row: AlbumListRow): AlbumSummary {
  return summary(row, SONG_COVER_WIDTH);
}

export function toAlbumPageJson({ rows, nextCursor, total }: AlbumPageResult): AlbumPage {
  return { items: rows.map((row) => summary(row, SONG_COVER_WIDTH)), nextCursor, total };
}

/** One album's page; `rating` is the caller's own stars on it (issue 28). */
export function toAlbumJson({ album, listing }: AlbumWithSongs, rating: number | null): Album {
  const { songCount: _count, ...rest } = summary(album, ALBUM_COVER_WIDTH);
  return { ...rest, songs: toSongsJson(listing), rating };
}
