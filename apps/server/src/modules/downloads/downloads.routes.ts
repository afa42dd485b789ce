// Brings in the `compress` route option's type (the plugin itself is registered by the app).
import type {} from '@fastify/compress';
import { IdParam, ServerMessages } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { notFound } from '../../http/errors.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { sendBlob } from '../media/send-blob.js';
import { attachmentDisposition, downloadFilename } from './download-filename.js';
import type { DownloadsRepository } from './downloads.repository.js';

/** Revalidated every time: whether the caller may download can change (premium lapses), the bytes cannot. */
const DOWNLOAD_CACHE_CONTROL = 'private, no-cache';

/**
 * GET /api/songs/{id}/download: the audio file as an attachment. Declared `premium`: the access guard lets premium
 * users and admins through and gives everyone else signed in a 403 that points to the payment page.
 */
export function downloadsRoutes(app: App, store: BlobStore | null, songs: DownloadsRepository): void {
  app.get(
    '/api/songs/:id/download',
    { config: { access: 'premium' }, compress: false, schema: { tags: ['songs'], params: IdParam } },
    async (request, reply) => {
      const song = await songs.findSong(request.params.id);
      const stat = song && store ? await store.stat('audio', song.audioKey) : null;
      if (!song || !store || !stat) throw notFound(ServerMessages.notFound);
      const path = store.localPath('audio', song.audioKey);
      reply.header(
        'content-disposition',
        attachmentDisposition(downloadFilename(song.artistName, song.name, song.audioKey)),
      );
      return sendBlob(request, reply, {
        ...(path === null ? { store, kind: 'audio' as const } : { path }),
        key: song.audioKey,
        size: stat.size,
        mtimeMs: stat.mtimeMs,
        mime: song.mime,
        cacheControl: DOWNLOAD_CACHE_CONTROL,
      });
    },
  );
}
