import { ServerMessages } from '@tonearm/contract';
import { isoNow } from '../../db/timestamps.js';
import { notFound } from '../../http/errors.js';
import type { AlbumsService } from '../albums/albums.service.js';
import type { ArtistsService } from '../artists/artists.service.js';
import type { SongsService, Viewer } from '../songs/songs.service.js';
import type { RatedKind, RatingsRepository } from './ratings.repository.js';

/**
 * Issue 28: each user's 1–5 stars on songs, albums and artists. Only an item the viewer sees may be rated: one in a
 * library hidden from them does not exist for them (404, as everywhere). A rating of 0 clears, like Subsonic's.
 */
export class RatingsService {
  constructor(
    private readonly ratings: RatingsRepository,
    private readonly songs: SongsService,
    private readonly albums: AlbumsService,
    private readonly artists: ArtistsService,
  ) {}

  /** Sets (1–5) or clears (0) the viewer's stars on the item; the contract has refused every other value. */
  async rate(viewer: Viewer, kind: RatedKind, id: number, rating: number): Promise<void> {
    await this.assertSees(viewer, kind, id);
    if (rating === 0) await this.ratings.clear(kind, viewer.id, id);
    else await this.ratings.set(kind, viewer.id, id, rating, isoNow());
  }

  async clear(viewer: Viewer, kind: RatedKind, id: number): Promise<void> {
    await this.rate(viewer, kind, id, 0);
  }

  /** 404 unless the item exists and the viewer may see it. */
  private async assertSees(viewer: Viewer, kind: RatedKind, id: number): Promise<void> {
    if (kind === 'song') {
      if (!(await this.songs.sees(viewer, id))) throw notFound(ServerMessages.notFound);
    } else if (kind === 'album') {
      if (!(await this.albums.sees(viewer, id))) throw notFound(ServerMessages.albumNotFound);
    } else {
      await this.artists.get(id, viewer.hiddenLibraries);
    }
  }
}
