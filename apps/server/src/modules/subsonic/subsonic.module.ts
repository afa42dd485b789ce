import type { App } from '../../http/app-types.js';
import type { ModuleDeps } from '../shared-deps.js';
import { createApiKeysRepository } from './api-keys.repository.js';
import { ApiKeysService } from './api-keys.service.js';
import { createAppPasswordsRepository } from './app-passwords.repository.js';
import { AppPasswordsService } from './app-passwords.service.js';
import { activityMethods } from './methods/activity.methods.js';
import { browsingMethods } from './methods/browsing.methods.js';
import { mediaMethods } from './methods/media.methods.js';
import { playlistsMethods } from './methods/playlists.methods.js';
import { searchMethods } from './methods/search.methods.js';
import { SecretBox } from './secret-box.js';
import { credentialLimits, SubsonicAuth } from './subsonic-auth.js';
import { createSubsonicDeps } from './subsonic-deps.js';
import { apiKeysRoutes, appPasswordRoutes, subsonicRoutes } from './subsonic.routes.js';
import { SubsonicService } from './subsonic.service.js';

/** Tonearm's version as Subsonic apps are told it (`serverVersion`). */
export const SERVER_VERSION = '0.1.0';

/**
 * The OpenSubsonic API (issue 13) under `/rest/`, and what signs Subsonic apps in: API keys
 * (`/api/users/:id/api-keys`) and the app password (`/api/users/:id/subsonic-password`). See docs/subsonic.md for what is implemented.
 */
export async function registerSubsonic(app: App, deps: ModuleDeps): Promise<void> {
  const keys = new ApiKeysService(createApiKeysRepository(deps.db));
  apiKeysRoutes(app, keys);
  const box = new SecretBox(deps.config.secretKey, deps.config.dataDir);
  const passwords = new AppPasswordsService(createAppPasswordsRepository(deps.db), box);
  appPasswordRoutes(app, passwords);
  const auth = new SubsonicAuth(keys, passwords, credentialLimits(deps.config, deps.counters));
  const subsonic = createSubsonicDeps(deps);
  // One group per area of the API (methods/*.methods.ts); each is a table of methods by name.
  const groups = [
    browsingMethods(subsonic),
    searchMethods(subsonic),
    playlistsMethods(subsonic),
    mediaMethods(subsonic),
    activityMethods(subsonic),
  ];
  await subsonicRoutes(app, new SubsonicService(auth, groups), SERVER_VERSION);
}
