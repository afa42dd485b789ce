import type { Artist, Song, SongsDataResponse } from '@tonearm/contract';
import { JsonStream } from '../../http/json-stream.js';
import { toArtistJson } from '../artists/artists.presenter.js';
import type { CatalogueFilter, SongsStreamRepository } from './songs-stream.repository.js';
import { toSongJson } from './songs.presenter.js';
import type { Viewer } from './songs.service.js';

/**
 * Songs per read when the whole catalogue is streamed. At 100 000 songs on the 2-core development machine one slice
 * (its read, the viewer's marks, about 100 kB of JSON) took 3.5 ms of CPU at best and 15 ms at the 99th percentile
 * with the machine heavily loaded: room under the event loop's 20 ms budget for a slower machine. Slices of 1 000 and
 * 2 000 cost 2× and 4× that, for no gain in time to last byte.
 */
export const CATALOGUE_CHUNK_ROWS = 500;

/**
 * Artists per read, as a fraction of the songs per read: each artist brings its song ids too (about twenty in a
 * typical library), so a read of artists costs about what a slice of songs does.
 */
const ARTISTS_PER_READ_DIVISOR = 4;

/**
 * The whole-catalogue answers of existing clients (GET /api/songs without a limit, GET /api/songs/data), exactly as
 * the one-shot code gave them (newest first; this viewer's likes and playlists), but read and written in slices:
 * keyset reads of `chunkRows` songs, each slice's likes and playlist marks read for that slice's id range only, the
 * JSON written slice by slice with backpressure (http/json-stream.ts). Memory stays about one slice whatever the
 * catalogue's size, and the reads stop when the client goes away.
 */
export class SongsStream {
  constructor(
    private readonly repository: SongsStreamRepository,
    private readonly chunkRows: number = CATALOGUE_CHUNK_ROWS,
  ) {}

  /** GET /api/songs without limit, offset or q: every song (of the genre or artist), newest first. */
  list(viewer: Viewer, filter: CatalogueFilter): JsonStream<Song[]> {
    return JsonStream.array(() => this.songChunks(viewer, { ...filter, hidden: viewer.hiddenLibraries }, null));
  }

  /** GET /api/songs/data: every song, newest first, and every artist in name order with its song ids. */
  data(viewer: Viewer): JsonStream<SongsDataResponse> {
    // Both halves read up to the same newest song, so an artist never lists a song added after the songs were read.
    let newest: Promise<number> | null = null;
    const upperBound = () => (newest ??= this.repository.newestSongId());
    return JsonStream.object<SongsDataResponse>({
      songs: JsonStream.array(() => this.songChunks(viewer, { hidden: viewer.hiddenLibraries }, upperBound)),
      artists: JsonStream.array(() => this.artistChunks(upperBound, viewer.hiddenLibraries)),
    });
  }

  private async *songChunks(
    viewer: Viewer,
    filter: CatalogueFilter,
    upperBound: (() => Promise<number>) | null,
  ): AsyncGenerator<Song[]> {
    let atMost = upperBound === null ? await this.repository.newestSongId() : await upperBound();
    while (atMost > 0) {
      const rows = await this.repository.songsUpTo(atMost, this.chunkRows, filter);
      const last = rows.at(-1);
      const first = rows[0];
      if (first === undefined || last === undefined) return;
      const [liked, playlists, ratings] = await Promise.all([
        this.repository.likedIdsBetween(viewer.id, last.id, first.id),
        this.repository.ownPlaylistIdsBetween(viewer.id, last.id, first.id),
        this.repository.ratingsBetween(viewer.id, last.id, first.id),
      ]);
      yield rows.map((row) => toSongJson(row, { liked, playlists, ratings }));
      if (rows.length < this.chunkRows) return;
      atMost = last.id - 1;
    }
  }

  private async *artistChunks(upperBound: () => Promise<number>, hidden: readonly number[]): AsyncGenerator<Artist[]> {
    const songsUpTo = await upperBound();
    const limit = Math.max(1, Math.floor(this.chunkRows / ARTISTS_PER_READ_DIVISOR));
    let after: string | null = null;
    for (;;) {
      const artists = await this.repository.artistsAfter(after, limit, songsUpTo, hidden);
      yield artists.map(toArtistJson);
      const last = artists.at(-1);
      // A short page is the last, unless hidden artists were left out of it (then an empty one is).
      if (last === undefined || (hidden.length === 0 && artists.length < limit)) return;
      after = last.name;
    }
  }
}
