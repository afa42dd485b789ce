// Brings in the `compress` route option's type (the plugin itself is registered by the app).
import type {} from '@fastify/compress';
import { endpoints } from '@tonearm/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { requireViewer } from '../../http/session.js';
import type { StreamMeter } from '../../media/media-meters.js';
import { sendBlob } from '../../media/send-blob.js';
import { attachmentDisposition } from './download-filename.js';
import type { DownloadFile, DownloadsService } from './downloads.service.js';

/** Revalidated every time: whether the caller may download can change (premium lapses), the bytes cannot. */
const DOWNLOAD_CACHE_CONTROL = 'private, no-cache';

/**
 * The audio file as an attachment. Declared `premium`: the access guard lets premium users and admins through and
 * gives everyone else signed in a 403 that points to the payment page.
 */
export function downloadsRoutes(app: App, downloads: DownloadsService, streams: StreamMeter): void {
  route(app, endpoints.downloads.song, { compress: false }, async (request, reply) => {
    const file = await downloads.download(await requireViewer(request), request.params.id);
    return sendDownload(request, reply, file, streams);
  });
}

/**
 * A download as an attachment, with sendBlob's semantics (304, 206/416, HEAD), its body told to `streams`; the Subsonic
 * `download` sends it too.
 */
export function sendDownload(
  request: FastifyRequest,
  reply: FastifyReply,
  file: DownloadFile,
  streams: StreamMeter,
): FastifyReply {
  reply.header('content-disposition', attachmentDisposition(file.filename));
  return sendBlob(request, reply, {
    ...file.source,
    key: file.key,
    size: file.size,
    mtimeMs: file.mtimeMs,
    mime: file.mime,
    cacheControl: DOWNLOAD_CACHE_CONTROL,
    meter: streams,
  });
}
