import type { App } from '../../http/app-types.js';
import type { ModuleDeps } from '../shared-deps.js';
import { createSongPagesService, createSongsService } from '../songs/songs.module.js';
import { createLikesRepository } from './likes.repository.js';
import { likesRoutes } from './likes.routes.js';
import { LikesService } from './likes.service.js';

/** Each signed-in user's likes, and the Liked view (songs as that user sees them). */
export function registerLikes(app: App, deps: ModuleDeps): void {
  const songs = createSongsService(deps);
  likesRoutes(app, new LikesService(createLikesRepository(deps.db), songs), createSongPagesService(deps, songs));
}
