import { endpoints, M3U8_CONTENT_TYPE, PlaylistFormFields, PlaylistUpdateFields } from '@tonearm/contract';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { badRequest, unsupportedMediaType } from '../../http/errors.js';
import { MultipartMessages } from '../../http/multipart.js';
import { requireViewer } from '../../http/session.js';
import { declaredUpload, parseFormFields, readUploadForm } from '../../http/upload-form.js';
import type { SharedRateLimit } from '../../plugins/rate-limit.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { ImageWork } from '../../media/image-work.js';
import { commitAll, discardAll, uploadStagers, type StagedImage } from '../../media/staging.js';
import { attachmentDisposition } from '../downloads/download-filename.js';
import type { ModuleDeps } from '../shared-deps.js';
import { toPlaylistJson } from './playlists.presenter.js';
import type { Actor, CoverUpload, PlaylistsService } from './playlists.service.js';

interface PlaylistForm {
  fields: Record<string, unknown>;
  cover: StagedImage | null;
}

/** Where a cover goes and how: the blob store, the image gate, and the check run before a cover is read. */
interface CoverIntake {
  blobs: BlobStore | null;
  images: ImageWork;
  /** Refuses (e.g. the daily image allowance is spent) before the cover's bytes are read. */
  beforeCover: () => Promise<void>;
}

/**
 * The create/edit form: multipart (with an optional cover streamed to a staged blob), or JSON without a cover (where
 * `songs` may also be a plain array). Anything else is a 415.
 */
async function readPlaylistForm(
  request: FastifyRequest,
  endpoint: typeof endpoints.playlists.create | typeof endpoints.playlists.update,
  intake: CoverIntake,
): Promise<PlaylistForm> {
  if (request.isMultipart()) {
    const { blobs, images } = intake;
    if (blobs === null) throw new Error('playlist covers need a blob store');
    const stagers = uploadStagers(blobs, images, intake.beforeCover);
    const form = await readUploadForm(request, declaredUpload(endpoint, stagers, discardAll));
    return { fields: form.fields, cover: form.files.image ?? null };
  }
  const body: unknown = request.body;
  if (request.headers['content-type']?.startsWith('application/json') !== true) {
    throw unsupportedMediaType(MultipartMessages.notMultipart);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('Request body must be a JSON object');
  }
  const fields = { ...(body as Record<string, unknown>) };
  if (Array.isArray(fields.songs)) fields.songs = JSON.stringify(fields.songs);
  return { fields, cover: null };
}

/** Runs `work` with the staged cover as a CoverUpload; whatever happens, a cover that was not committed is removed. */
async function withCover<T>(cover: StagedImage | null, work: (upload: CoverUpload | null) => Promise<T>): Promise<T> {
  try {
    return await work(cover && { key: cover.originalKey, bytes: cover.size, commit: () => commitAll([cover]) });
  } finally {
    // A no-op for committed blobs; removes the staged bytes after any failure.
    await discardAll([cover]);
  }
}

/** DESIGN §4 Playlist. Every route needs a session; the service decides owner/admin/public access. */
export function playlistsRoutes(
  app: App,
  { blobs, images }: Pick<ModuleDeps, 'blobs' | 'images'>,
  playlists: PlaylistsService,
  uploads: SharedRateLimit,
): void {
  const intake = (actor: Actor): CoverIntake => ({
    blobs,
    images,
    beforeCover: () => playlists.assertCanUploadCover(actor),
  });

  route(app, endpoints.playlists.list, async (request) =>
    (await playlists.list(await requireViewer(request), request.query)).map(toPlaylistJson),
  );

  route(app, endpoints.playlists.listAll, async (request) =>
    (await playlists.listAll(request.query)).map(toPlaylistJson),
  );

  route(app, endpoints.playlists.ofUser, async (request) => {
    const actor = await requireViewer(request);
    return (await playlists.listOfUser(actor, request.params.id, request.query)).map(toPlaylistJson);
  });

  route(app, endpoints.playlists.page, async (request) => {
    const { views, nextCursor, total } = await playlists.page(await requireViewer(request), request.query);
    return { items: views.map(toPlaylistJson), nextCursor, total };
  });

  route(app, endpoints.playlists.get, async (request) =>
    toPlaylistJson(await playlists.get(await requireViewer(request), request.params.id)),
  );

  route(app, endpoints.playlists.exportM3u8, async (request, reply) => {
    const { filename, text } = await playlists.exportM3u8(await requireViewer(request), request.params.playlistId);
    return reply
      .header('content-type', M3U8_CONTENT_TYPE)
      .header('content-disposition', attachmentDisposition(filename))
      .header('cache-control', 'private, no-cache')
      .send(text);
  });

  route(app, endpoints.playlists.create, { preHandler: uploads }, async (request) => {
    const actor = await requireViewer(request);
    await playlists.assertCanCreate(actor);
    const { fields, cover } = await readPlaylistForm(request, endpoints.playlists.create, intake(actor));
    const view = await withCover(cover, (upload) =>
      playlists.create(actor, parseFormFields(PlaylistFormFields, fields), upload),
    );
    return toPlaylistJson(view);
  });

  route(app, endpoints.playlists.update, { preHandler: uploads }, async (request) => {
    const actor = await requireViewer(request);
    await playlists.assertWritable(actor, request.params.id);
    const { fields, cover } = await readPlaylistForm(request, endpoints.playlists.update, intake(actor));
    const view = await withCover(cover, (upload) =>
      playlists.update(actor, request.params.id, parseFormFields(PlaylistUpdateFields, fields), upload),
    );
    return toPlaylistJson(view);
  });

  route(app, endpoints.playlists.reorder, async (request) => {
    const actor = await requireViewer(request);
    return toPlaylistJson(await playlists.reorder(actor, request.params.id, request.body.songIds));
  });

  route(app, endpoints.playlists.addSong, async (request) => {
    const actor = await requireViewer(request);
    await playlists.addSong(actor, request.params.playlistId, request.params.songId);
  });

  route(app, endpoints.playlists.removeSong, async (request) => {
    const actor = await requireViewer(request);
    await playlists.removeSong(actor, request.params.playlistId, request.params.songId);
  });

  route(app, endpoints.playlists.remove, async (request) => {
    const actor = await requireViewer(request);
    await playlists.remove(actor, request.params.id);
  });
}
