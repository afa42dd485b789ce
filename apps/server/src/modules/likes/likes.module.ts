import type { App } from '../../http/app-types.js';
import type { SongPagesService } from '../songs/song-pages.service.js';
import { likesRoutes } from './likes.routes.js';
import type { LikesService } from './likes.service.js';

/** Each signed-in user's likes, and the Liked view (songs as that user sees them). */
export function registerLikes(
  app: App,
  { likes, songPages }: { likes: LikesService; songPages: SongPagesService },
): void {
  likesRoutes(app, likes, songPages);
}
