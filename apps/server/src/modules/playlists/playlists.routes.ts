import type { Readable } from 'node:stream';
import {
  IMAGE_MAX_BYTES,
  DbIdText,
  IdParam,
  Paging,
  Playlist,
  PlaylistFormFields,
  PlaylistListResponse,
  PlaylistMessages,
  PlaylistOrderRequest,
  PlaylistUpdateFields,
  ServerMessages,
} from '@tonearm/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from '../../http/app-types.js';
import { badRequest, unsupportedMediaType } from '../../http/errors.js';
import { MultipartMessages } from '../../http/multipart.js';
import { requireUser } from '../../http/session.js';
import { sendText, textResponse } from '../../http/text-response.js';
import { parseFormFields, readUploadForm } from '../../http/upload-form.js';
import type { SharedRateLimit } from '../../plugins/rate-limit.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { ImageWork } from '../media/image-work.js';
import { commitAll, discardAll, stageImage, type StagedImage } from '../media/media.service.js';
import type { ModuleDeps } from '../shared-deps.js';
import { toPlaylistJson } from './playlists.presenter.js';
import type { Actor, CoverUpload, PlaylistsService } from './playlists.service.js';

const tags = ['playlists'];
const PlaylistSongParams = z.object({
  playlistId: DbIdText,
  songId: DbIdText,
});

/** The multipart field of the cover image. */
export const COVER_FIELD = 'image';

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
async function readPlaylistForm(request: FastifyRequest, intake: CoverIntake): Promise<PlaylistForm> {
  if (request.isMultipart()) {
    const { blobs, images } = intake;
    if (blobs === null) throw new Error('playlist covers need a blob store');
    const form = await readUploadForm(request, {
      files: {
        [COVER_FIELD]: async (file: Readable) => {
          await intake.beforeCover();
          return stageImage(blobs, file, COVER_FIELD, images);
        },
      },
      discard: discardAll,
      maxFileBytes: IMAGE_MAX_BYTES,
    });
    return { fields: form.fields, cover: form.files[COVER_FIELD] ?? null };
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

  app.get(
    '/api/playlists',
    { config: { access: 'session' }, schema: { tags, querystring: Paging, response: { 200: PlaylistListResponse } } },
    async (request) => (await playlists.list(await requireUser(request), request.query)).map(toPlaylistJson),
  );

  app.get(
    '/api/playlists/admin',
    { config: { access: 'admin' }, schema: { tags, querystring: Paging, response: { 200: PlaylistListResponse } } },
    async (request) => (await playlists.listAll(request.query)).map(toPlaylistJson),
  );

  app.get(
    '/api/playlists/user/:id',
    {
      config: { access: 'owner' },
      schema: { tags, params: IdParam, querystring: Paging, response: { 200: PlaylistListResponse } },
    },
    async (request) => {
      const actor = await requireUser(request);
      return (await playlists.listOfUser(actor, request.params.id, request.query)).map(toPlaylistJson);
    },
  );

  app.get(
    '/api/playlists/:id',
    { config: { access: 'owner' }, schema: { tags, params: IdParam, response: { 200: Playlist } } },
    async (request) => toPlaylistJson(await playlists.get(await requireUser(request), request.params.id)),
  );

  app.post(
    '/api/playlists',
    { config: { access: 'session' }, preHandler: uploads, schema: { tags, response: { 201: Playlist } } },
    async (request, reply) => {
      const actor = await requireUser(request);
      await playlists.assertCanCreate(actor);
      const { fields, cover } = await readPlaylistForm(request, intake(actor));
      const view = await withCover(cover, (upload) =>
        playlists.create(actor, parseFormFields(PlaylistFormFields, fields), upload),
      );
      return reply.status(201).send(toPlaylistJson(view));
    },
  );

  app.put(
    '/api/playlists/updatePlaylist/:id',
    {
      config: { access: 'owner' },
      preHandler: uploads,
      schema: { tags, params: IdParam, response: { 200: Playlist } },
    },
    async (request) => {
      const actor = await requireUser(request);
      await playlists.assertWritable(actor, request.params.id);
      const { fields, cover } = await readPlaylistForm(request, intake(actor));
      const view = await withCover(cover, (upload) =>
        playlists.update(actor, request.params.id, parseFormFields(PlaylistUpdateFields, fields), upload),
      );
      return toPlaylistJson(view);
    },
  );

  app.put(
    '/api/playlists/:id/order',
    {
      config: { access: 'owner' },
      schema: { tags, params: IdParam, body: PlaylistOrderRequest, response: { 200: Playlist } },
    },
    async (request) => {
      const actor = await requireUser(request);
      return toPlaylistJson(await playlists.reorder(actor, request.params.id, request.body.songIds));
    },
  );

  app.put(
    '/api/playlists/:playlistId/songs/:songId',
    {
      config: { access: 'owner' },
      schema: { tags, params: PlaylistSongParams, response: { 200: textResponse(ServerMessages.songAddedToPlaylist) } },
    },
    async (request, reply) => {
      const actor = await requireUser(request);
      await playlists.addSong(actor, request.params.playlistId, request.params.songId);
      sendText(reply, 200, ServerMessages.songAddedToPlaylist);
      return reply;
    },
  );

  app.delete(
    '/api/playlists/:playlistId/songs/:songId',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        params: PlaylistSongParams,
        response: { 200: textResponse(ServerMessages.songRemovedFromPlaylist) },
      },
    },
    async (request, reply) => {
      const actor = await requireUser(request);
      await playlists.removeSong(actor, request.params.playlistId, request.params.songId);
      sendText(reply, 200, ServerMessages.songRemovedFromPlaylist);
      return reply;
    },
  );

  app.delete(
    '/api/playlists/:id',
    {
      config: { access: 'owner' },
      schema: { tags, params: IdParam, response: { 200: textResponse(PlaylistMessages.playlistDeleted) } },
    },
    async (request, reply) => {
      const actor = await requireUser(request);
      await playlists.remove(actor, request.params.id);
      sendText(reply, 200, PlaylistMessages.playlistDeleted);
      return reply;
    },
  );
}
