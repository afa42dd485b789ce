import type { App } from '../../http/app-types.js';
import type { ModuleDeps } from '../shared-deps.js';
import { createApiKeysRepository } from './api-keys.repository.js';
import { ApiKeysService } from './api-keys.service.js';
import { activityMethods } from './methods/activity.methods.js';
import { browsingMethods } from './methods/browsing.methods.js';
import { mediaMethods } from './methods/media.methods.js';
import { createSubsonicDeps } from './subsonic-deps.js';
import { apiKeysRoutes, subsonicRoutes } from './subsonic.routes.js';
import { SubsonicService } from './subsonic.service.js';

/** Tonearm's version as Subsonic apps are told it (`serverVersion`). */
export const SERVER_VERSION = '0.1.0';

/**
 * The OpenSubsonic API (issue 13) under `/rest/`, and the API keys that sign Subsonic apps in
 * (`/api/users/:id/api-keys`). See docs/subsonic.md for what is implemented.
 */
export async function registerSubsonic(app: App, deps: ModuleDeps): Promise<void> {
  const keys = new ApiKeysService(createApiKeysRepository(deps.db));
  apiKeysRoutes(app, keys);
  const subsonic = createSubsonicDeps(deps);
  // One group per area of the API (methods/*.methods.ts); each is a table of methods by name.
  const groups = [browsingMethods(subsonic), mediaMethods(subsonic), activityMethods(subsonic)];
  await subsonicRoutes(app, new SubsonicService(keys, groups), SERVER_VERSION);
}
