import type { App } from '../http/app-types.js';
import { registerAlbums } from './albums/albums.module.js';
import { registerArtists } from './artists/artists.module.js';
import { registerAuth } from './auth/auth.module.js';
import { registerDownloads } from './downloads/downloads.module.js';
import type { MediaHandler } from './media/media-handler.js';
import { registerLikes } from './likes/likes.module.js';
import { registerPayments } from './payments/payments.module.js';
import { registerPlaylists } from './playlists/playlists.module.js';
import { registerPlays } from './plays/plays.module.js';
import { registerSearch } from './search/search.module.js';
import { createModuleDeps, type AppDeps } from './shared-deps.js';
import { registerSongs } from './songs/songs.module.js';
import { registerSubsonic } from './subsonic/subsonic.module.js';
import { registerUsers } from './users/users.module.js';

/**
 * Registers every feature's routes on the root instance (after the core plugins, so rate limits, OpenAPI and the
 * session helpers apply), in this order. Each feature is one `registerX(app, deps)` in its `<feature>.module.ts`;
 * append new ones at the end. `/media` is registered by the app itself, in front of the router (modules/media), before
 * the modules, which get its handler (`media`).
 */
export async function registerModules(app: App, appDeps: AppDeps, media: MediaHandler | null): Promise<void> {
  const deps = createModuleDeps(app, appDeps, media);
  registerAuth(app, deps);
  await registerUsers(app, deps);
  await registerPlaylists(app, deps);
  registerPlays(app, deps);
  await registerPayments(app, deps);
  registerDownloads(app, deps);
  await registerArtists(app, deps);
  await registerSongs(app, deps);
  registerLikes(app, deps);
  registerSearch(app, deps);
  await registerAlbums(app, deps);
  await registerSubsonic(app, deps);
  // Loads whatever plugins the modules registered, so their errors surface here rather than at listen().
  await app.after();
}
