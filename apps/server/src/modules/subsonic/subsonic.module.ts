import type { App } from '../../http/app-types.js';
import type { ApiKeysService } from './api-keys.service.js';
import type { AppPasswordsService } from './app-passwords.service.js';
import { scanningMethods } from './methods/scanning.methods.js';
import { activityMethods } from './methods/activity.methods.js';
import { bookmarksMethods } from './methods/bookmarks.methods.js';
import { browsingMethods } from './methods/browsing.methods.js';
import { infoMethods } from './methods/info.methods.js';
import { lyricsMethods } from './methods/lyrics.methods.js';
import { mediaMethods } from './methods/media.methods.js';
import { playbackMethods } from './methods/playback.methods.js';
import { discoveryMethods } from './methods/discovery.methods.js';
import { playlistsMethods } from './methods/playlists.methods.js';
import { ratingsMethods } from './methods/ratings.methods.js';
import { searchMethods } from './methods/search.methods.js';
import type { SubsonicDeps } from './subsonic-deps.js';
import type { MethodTable } from './subsonic-method.js';
import { apiKeysRoutes, appPasswordRoutes, subsonicRoutes } from './subsonic.routes.js';
import type { SubsonicService } from './subsonic.service.js';

/** Tonearm's version as Subsonic apps are told it (`serverVersion`). */
export const SERVER_VERSION = '0.1.0';

/** The Subsonic methods, one table per area of the API (methods/*.methods.ts), over the services they call. */
export function subsonicMethods(deps: SubsonicDeps): MethodTable[] {
  return [
    browsingMethods(deps),
    infoMethods(deps),
    searchMethods(deps),
    playlistsMethods(deps),
    mediaMethods(deps),
    lyricsMethods(deps),
    activityMethods(deps),
    playbackMethods(deps),
    bookmarksMethods(deps),
    ratingsMethods(deps),
    discoveryMethods(deps),
    scanningMethods(deps.libraries),
  ];
}

/**
 * The OpenSubsonic API (issue 13) under `/rest/`, and what signs Subsonic apps in: API keys
 * (`/api/users/:id/api-keys`) and the app password (`/api/users/:id/subsonic-password`). See docs/subsonic.md for what
 * is implemented. The services (and the method tables inside `subsonic`) are built by the composition root.
 */
export async function registerSubsonic(
  app: App,
  deps: { apiKeys: ApiKeysService; appPasswords: AppPasswordsService; subsonic: SubsonicService },
): Promise<void> {
  apiKeysRoutes(app, deps.apiKeys);
  appPasswordRoutes(app, deps.appPasswords);
  await subsonicRoutes(app, deps.subsonic, SERVER_VERSION);
}
