import type { ArtistRow } from '../../db/schema.js';
import type { AlbumListRow } from '../albums/albums.repository.js';
import type { RatingsRepository } from '../ratings/ratings.repository.js';
import type { SongListing, Viewer } from '../songs/songs.service.js';
import type { SubsonicCatalogueRepository } from './subsonic-catalogue.repository.js';
import type { StarDates, SubsonicStarsRepository } from './subsonic-stars.repository.js';
import { albumChild, albumID3, artistEntry, artistID3, songChildren } from './subsonic.mappers.js';
import type { SubsonicNode } from './subsonic.response.js';

/**
 * Songs, albums and artists as the caller sees them in a Subsonic answer: each carries `starred` (the date) when the
 * caller starred it (a song's star is the caller's like) and `userRating` when the caller rated it (issue 28). One
 * query per list for the dates, one for the ratings (and one for artists' album counts), whatever the list's length.
 */
export class StarMarks {
  constructor(
    private readonly stars: SubsonicStarsRepository,
    private readonly catalogue: SubsonicCatalogueRepository,
    private readonly ratings: Pick<RatingsRepository, 'ratingsOf'>,
  ) {}

  /** The caller's stars on every artist they rated (getArtists, getIndexes: the whole index at once). */
  artistRatings(viewer: { id: number }): Promise<Map<number, number>> {
    return this.ratings.ratingsOf('artist', viewer.id);
  }

  /** Songs as `Child`ren, in the listing's order. */
  async songs(viewer: Viewer, listing: SongListing): Promise<SubsonicNode[]> {
    const liked = listing.rows.filter((row) => listing.marks.liked.has(row.id)).map((row) => row.id);
    const dates = await this.stars.likeDates(viewer.id, liked);
    return songChildren(listing.rows, listing.marks, dates);
  }

  /** Albums as `AlbumID3` (`id3`) or as directory `Child`ren (`child`), in the rows' order. */
  async albums(
    viewer: Viewer,
    rows: readonly AlbumListRow[],
    shape: 'id3' | 'child',
    known?: StarDates,
  ): Promise<SubsonicNode[]> {
    const ids = rows.map((row) => row.id);
    const [dates, ratings] = await Promise.all([
      known ?? this.stars.starDates('album', viewer.id, ids),
      this.ratings.ratingsOf('album', viewer.id, ids),
    ]);
    const map = shape === 'id3' ? albumID3 : albumChild;
    return rows.map((row) => map(row, { starred: dates.get(row.id), userRating: ratings.get(row.id) }));
  }

  /**
   * Artists as `ArtistID3` (`id3`, with their album counts: the albums not only in libraries hidden from the viewer) or
   * as folder-based `Artist`s (`entry`).
   */
  async artists(
    viewer: Viewer,
    rows: readonly ArtistRow[],
    shape: 'id3' | 'entry',
    known?: StarDates,
  ): Promise<SubsonicNode[]> {
    const ids = rows.map((row) => row.id);
    const [dates, counts, ratings] = await Promise.all([
      known ?? this.stars.starDates('artist', viewer.id, ids),
      shape === 'id3' ? this.catalogue.albumCounts(ids, viewer.hiddenLibraries) : new Map<number, number>(),
      this.ratings.ratingsOf('artist', viewer.id, ids),
    ]);
    return rows.map((row) => {
      const extras = { starred: dates.get(row.id), userRating: ratings.get(row.id) };
      return shape === 'id3' ? artistID3(row, counts.get(row.id) ?? 0, extras) : artistEntry(row, extras);
    });
  }
}

/** The rows in the order of `ids` (rows read with `where id in`), skipping ids that have no row. */
export function inOrder<Row extends { id: number }>(ids: readonly number[], rows: readonly Row[]): Row[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
