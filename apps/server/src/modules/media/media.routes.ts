// Brings in the `compress` route option's type (the plugin itself is registered by the app).
import type {} from '@fastify/compress';
import type { App } from '../../http/app-types.js';
import type { MediaHandler } from './media-handler.js';

/**
 * `/media/audio/:key` and `/media/images/:key` inside Fastify, for requests that never pass through the HTTP server
 * (app.inject: tests and in-process callers). Real traffic is answered before Fastify's router by the same handler
 * (serverFactory in app.ts), so both entrances share one implementation: this route only hands the raw request over.
 */
export function mediaRoutes(app: App, media: MediaHandler): void {
  for (const url of ['/media/audio/:key', '/media/images/:key']) {
    app.route({
      method: ['GET', 'HEAD'],
      url,
      compress: false,
      // The handler itself checks the session for audio (images are public); see media-handler.ts.
      config: { access: url.startsWith('/media/audio') ? 'session' : 'public' },
      handler: (request, reply) => {
        if (media.handle(request.raw, reply.raw)) reply.hijack();
        else reply.callNotFound();
      },
    });
  }
}
