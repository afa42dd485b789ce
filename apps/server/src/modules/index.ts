import type { App } from '../http/app-types.js';
import { uploadRateLimit } from '../plugins/rate-limit.js';
import { registerAlbums } from './albums/albums.module.js';
import { registerAnalysis } from './analysis/analysis.module.js';
import { registerArtists } from './artists/artists.module.js';
import { registerDevices } from './devices/devices.module.js';
import { registerAuth } from './auth/auth.module.js';
import { registerDownloads } from './downloads/downloads.module.js';
import { registerLibraries } from './libraries/libraries.module.js';
import { registerLikes } from './likes/likes.module.js';
import { registerPayments } from './payments/payments.module.js';
import { registerPlaylists } from './playlists/playlists.module.js';
import { registerPlays } from './plays/plays.module.js';
import { registerScrobbling } from './scrobbling/scrobbling.module.js';
import { registerRatings } from './ratings/ratings.module.js';
import { registerListens } from './listens/listens.module.js';
import { registerSearch } from './search/search.module.js';
import { registerStats } from './stats/stats.module.js';
import { registerSongs } from './songs/songs.module.js';
import { registerRadio } from './radio/radio.module.js';
import { registerSubsonic } from './subsonic/subsonic.module.js';
import { registerUsers } from './users/users.module.js';

/** What the modules read, all of it built once by the composition root (composition.ts), less the upload limit. */
export type ModulesDeps = Omit<
  Parameters<typeof registerAuth>[1] &
    Parameters<typeof registerUsers>[1] &
    Parameters<typeof registerPlaylists>[1] &
    Parameters<typeof registerPlays>[1] &
    Parameters<typeof registerPayments>[1] &
    Parameters<typeof registerDownloads>[1] &
    Parameters<typeof registerArtists>[1] &
    Parameters<typeof registerSongs>[1] &
    Parameters<typeof registerLikes>[1] &
    Parameters<typeof registerSearch>[1] &
    Parameters<typeof registerAlbums>[1] &
    Parameters<typeof registerSubsonic>[1] &
    Parameters<typeof registerLibraries>[1] &
    Parameters<typeof registerDevices>[1] &
    Parameters<typeof registerScrobbling>[1] &
    Parameters<typeof registerRatings>[1] &
    Parameters<typeof registerStats>[1] &
    Parameters<typeof registerListens>[1] &
    Parameters<typeof registerAnalysis>[1] &
    Parameters<typeof registerRadio>[1],
  'uploads'
>;

/**
 * Registers every feature's routes on the root instance (after the core plugins, so rate limits, OpenAPI and the
 * session helpers apply), in this order. Each feature is one `registerX(app, deps)` in its `<feature>.module.ts`,
 * which registers routes over services it is handed (composition.ts builds them); append new ones at the end.
 * `/media` is registered by the app itself, in front of the router (modules/media), before the modules.
 */
export async function registerModules(app: App, services: ModulesDeps): Promise<void> {
  // UPLOAD_RATE_LIMIT: one counter per user across every upload route, attached as their preHandler.
  const deps = { ...services, uploads: uploadRateLimit(app, services.config.limits.uploadsPerMinute) };
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
  registerLibraries(app, deps);
  registerDevices(app, deps);
  registerScrobbling(app, deps);
  registerRatings(app, deps);
  registerStats(app, deps);
  registerListens(app, deps);
  registerAnalysis(app, deps);
  registerRadio(app, deps);
  // Loads whatever plugins the modules registered, so their errors surface here rather than at listen().
  await app.after();
}
