// Brings in the `compress` route option's type (the plugin itself is registered by the app).
import type {} from '@fastify/compress';
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import { ServerMessages, THUMBNAIL_WIDTHS, type ThumbnailWidth } from '@tonearm/contract';
import { badRequest, notFound, unauthorized } from '../../http/errors.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { ImageMessages, mimeForKey } from './media.formats.js';
import { imageKeyFor } from './media.service.js';
import { AUDIO_CACHE_CONTROL, IMAGE_CACHE_CONTROL, sendBlob } from './send-blob.js';

export interface MediaRoutesOptions {
  store: BlobStore;
  /** Whether the request carries a valid session; called on every audio request, so it should be cached. */
  authenticate: (request: FastifyRequest) => Promise<boolean> | boolean;
}

interface KeyParams {
  key: string;
}

interface ImageQuery {
  w?: string | string[];
}

/**
 * `GET|HEAD /media/audio/:key` (session required) and `GET|HEAD /media/images/:key?w=64|300|640` (public). Audio is
 * the hot path (DESIGN §6): no schema, no compression, one stat and a 64 KiB-read file stream. Errors are thrown as
 * HttpError for the app's error handler: 401 without a session, 404 for an unknown or invalid key, 400 for a bad `w`.
 */
export const mediaRoutes: FastifyPluginCallback<MediaRoutesOptions> = (app, { store, authenticate }, done) => {
  app.route<{ Params: KeyParams }>({
    method: ['GET', 'HEAD'],
    url: '/media/audio/:key',
    // Audio is already compressed (or, as WAV, streamed in ranges), and gzip would break byte ranges.
    compress: false,
    handler: async (request, reply) => {
      if (!(await authenticate(request))) throw unauthorized(ServerMessages.notAuthenticated);
      const { key } = request.params;
      const stat = await store.stat('audio', key);
      if (!stat) throw notFound(ServerMessages.notFound);
      return sendBlob(request, reply, {
        store,
        kind: 'audio',
        key,
        size: stat.size,
        mtimeMs: stat.mtimeMs,
        mime: mimeForKey(key),
        cacheControl: AUDIO_CACHE_CONTROL,
      });
    },
  });

  app.route<{ Params: KeyParams; Querystring: ImageQuery }>({
    method: ['GET', 'HEAD'],
    url: '/media/images/:key',
    compress: false,
    handler: async (request, reply) => {
      const width = parseWidth(request.query.w);
      const blobKey = imageKeyFor(request.params.key, width);
      const stat = blobKey ? await store.stat('image', blobKey) : null;
      if (!blobKey || !stat) throw notFound(ServerMessages.notFound);
      return sendBlob(request, reply, {
        store,
        kind: 'image',
        key: blobKey,
        size: stat.size,
        mtimeMs: stat.mtimeMs,
        mime: mimeForKey(blobKey),
        cacheControl: IMAGE_CACHE_CONTROL,
      });
    },
  });

  done();
};

function parseWidth(value: string | string[] | undefined): ThumbnailWidth | undefined {
  if (value === undefined) return undefined;
  const width = THUMBNAIL_WIDTHS.find((candidate) => String(candidate) === value);
  if (width === undefined) throw badRequest(ImageMessages.badWidth, 'w');
  return width;
}
