import { ServerMessages } from '@tonearm/contract';
import { isoNow } from '../../db/timestamps.js';
import { notFound } from '../../http/errors.js';
import type { SongListing, SongsService, Viewer } from '../songs/songs.service.js';
import type { LikesRepository } from './likes.repository.js';

/** Likes are per user: `likeSong` in every Song answer reflects the caller's own. */
export class LikesService {
  constructor(
    private readonly likes: LikesRepository,
    private readonly songs: SongsService,
  ) {}

  async like(viewer: Viewer, songId: number): Promise<void> {
    await this.assertSong(viewer, songId);
    await this.likes.like(viewer.id, songId, isoNow());
  }

  async unlike(viewer: Viewer, songId: number): Promise<void> {
    await this.assertSong(viewer, songId);
    await this.likes.unlike(viewer.id, songId);
  }

  /** The Liked view: most recently liked first. */
  liked(viewer: Viewer, limit?: number, offset?: number): Promise<SongListing> {
    return this.songs.listLiked(viewer, limit, offset);
  }

  /** 404 unless the song exists and the viewer may see its library. */
  private async assertSong(viewer: Viewer, songId: number): Promise<void> {
    if (!(await this.songs.sees(viewer, songId))) throw notFound(ServerMessages.notFound);
  }
}
