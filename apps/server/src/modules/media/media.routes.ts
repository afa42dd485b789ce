// Brings in the `compress` route option's type (the plugin itself is registered by the app).
import type {} from '@fastify/compress';
import {
  endpoints,
  TRANSCODE_BITRATE_DEFAULT,
  TRANSCODE_BITRATE_MAX,
  TRANSCODE_BITRATE_MIN,
  TRANSCODE_FORMATS,
} from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { route, type RouteExtras } from '../../http/endpoint-route.js';
import type { MediaHandler } from './media-handler.js';

/**
 * Bytes as they are (never re-encoded, so Range answers stay right), and HEAD documented beside GET: Fastify answers
 * HEAD through the same handler (its HEAD twin of every GET route), and OpenAPI lists it.
 */
const MEDIA_EXTRAS: RouteExtras = { compress: false, config: { swagger: { exposeHeadRoute: true } } };

/**
 * `/media/audio/:key` and `/media/images/:key` inside Fastify, for requests that never pass through the HTTP server
 * (app.inject: tests and in-process callers). Real traffic is answered before Fastify's router by the same handler
 * (serverFactory in app.ts), so both entrances share one implementation: this route only hands the raw request over.
 * The handler itself checks the session for audio (images are public); see media-handler.ts.
 */
export function mediaRoutes(app: App, media: MediaHandler): void {
  for (const spec of [endpoints.media.audio, endpoints.media.image]) {
    route(app, spec, MEDIA_EXTRAS, (request, reply) => {
      if (media.handle(request.raw, reply.raw)) reply.hijack();
      else reply.callNotFound();
      return reply;
    });
  }
}

/** `GET /api/media/capabilities`: whether `?format=` converts here (ffmpeg found at start-up) and what it takes. */
export function capabilitiesRoute(app: App, transcoding: boolean): void {
  route(app, endpoints.media.capabilities, () => ({
    transcoding,
    formats: [...TRANSCODE_FORMATS],
    bitrateMin: TRANSCODE_BITRATE_MIN,
    bitrateMax: TRANSCODE_BITRATE_MAX,
    bitrateDefault: TRANSCODE_BITRATE_DEFAULT,
  }));
}
