import type { Config } from '../../config.js';
import type { App } from '../../http/app-types.js';
import type { RawHandler } from '../../http/server-factory.js';
import { securityHeaders } from '../../plugins/security.js';
import type { SessionStore } from '../../sessions/session-store.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { createMediaHandler, type MediaHandler } from './media-handler.js';
import { mediaRoutes } from './media.routes.js';

/**
 * `/media`: the lean handler the app puts in front of Fastify's router (answered before routing, DESIGN §6), and its
 * Fastify routes for app.inject. Answers the raw handler for the server factory; null without a blob store. Takes
 * its deps by shape (the app's AppDeps fit): media sits below the shared module deps, which use its types.
 */
export function registerMedia(
  app: App,
  { blobs, sessions, config }: { blobs: BlobStore | null; sessions: SessionStore; config: Config },
): RawHandler | null {
  if (blobs === null) return null;
  const handler = mediaHandler(app, blobs, sessions, config);
  mediaRoutes(app, handler);
  return handler.handle;
}

/** The lean /media handler over the app's blob store, session cache, security headers and logger. */
function mediaHandler(app: App, store: BlobStore, sessions: SessionStore, config: Config): MediaHandler {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  const handler = createMediaHandler({
    store,
    sessions,
    securityHeaders: securityHeaders(config),
    log: app.log,
    isClosing: () => closing,
  });
  app.addHook('onClose', (_instance, done) => {
    handler.close();
    done();
  });
  return handler;
}
