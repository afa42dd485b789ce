import type { Readable } from 'node:stream';
import {
  AUDIO_MAX_BYTES,
  IdParam,
  ServerMessages,
  Song,
  SongEditFields,
  SongFormFields,
  SongListQuery,
  SongsDataResponse,
} from '@tonearm/contract';
import { z } from 'zod';
import type { App } from '../../http/app-types.js';
import { notFound } from '../../http/errors.js';
import { requireUser } from '../../http/session.js';
import { sendText, textResponse } from '../../http/text-response.js';
import { parseFormFields, readUploadForm } from '../../http/upload-form.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { ImageWork } from '../media/image-work.js';
import { discardAll, stageAudio, stageImage } from '../media/media.service.js';
import { toSongJson, toSongsDataJson, toSongsJson } from './songs.presenter.js';
import type { SongsService } from './songs.service.js';

const tags = ['songs'];
const SongList = z.array(Song);
const songFormDescription =
  'multipart/form-data: name, genre (one of the catalogue genres), artistId, songFile (MP3, FLAC, OGG/Opus, M4A/AAC ' +
  'or WAV, at most 200 MB), imageFile (JPEG, PNG or WebP, at most 15 MB).';

/** A non-numeric artistId reads as 0, so the contract's own "Choose an artist" answers it, not a type error. */
function numericArtistId(fields: Record<string, string>): Record<string, string> {
  const artistId = fields.artistId?.trim();
  return artistId === undefined || artistId === '' || /^\d+$/.test(artistId) ? fields : { ...fields, artistId: '0' };
}

/** Reads of the catalogue: any signed-in user (401 otherwise). */
export function songsReadRoutes(app: App, songs: SongsService): void {
  app.get(
    '/api/songs',
    { config: { access: 'session' }, schema: { tags, querystring: SongListQuery, response: { 200: SongList } } },
    async (request) => toSongsJson(await songs.list(await requireUser(request), request.query)),
  );

  app.get(
    '/api/songs/data',
    { config: { access: 'session' }, schema: { tags, response: { 200: SongsDataResponse } } },
    async (request) => toSongsDataJson(await songs.data(await requireUser(request))),
  );

  app.get(
    '/api/songs/:id',
    { config: { access: 'session' }, schema: { tags, params: IdParam, response: { 200: Song } } },
    async (request) => {
      const { row, marks } = await songs.get(await requireUser(request), request.params.id);
      return toSongJson(row, marks);
    },
  );

  app.get(
    '/api/songs/playlistId/:id',
    { config: { access: 'owner' }, schema: { tags, params: IdParam, response: { 200: SongList } } },
    async (request) => toSongsJson(await songs.listInPlaylist(await requireUser(request), request.params.id)),
  );
}

/** Admin writes through the upload pipeline; registered in the module's upload scope (registerUploadScope). */
export function songsWriteRoutes(scope: App, songs: SongsService, store: BlobStore, images: ImageWork): void {
  const upload = {
    files: {
      songFile: (stream: Readable) => stageAudio(store, stream, 'songFile'),
      imageFile: (stream: Readable) => stageImage(store, stream, 'imageFile', images),
    },
    discard: discardAll,
    maxFileBytes: AUDIO_MAX_BYTES,
  };

  scope.post(
    '/api/songs',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description: songFormDescription,
        consumes: ['multipart/form-data'],
        response: { 201: textResponse(ServerMessages.songAdded) },
      },
    },
    async (request, reply) => {
      const form = await readUploadForm(request, upload);
      const audio = form.files.songFile ?? null;
      const image = form.files.imageFile ?? null;
      let fields: SongFormFields;
      try {
        fields = parseFormFields(SongFormFields, numericArtistId(form.fields), { name: '', genre: '', artistId: '' });
      } catch (error) {
        await discardAll([audio, image]);
        throw error;
      }
      await songs.add({ ...fields, audio, image });
      sendText(reply, 201, ServerMessages.songAdded);
      return reply;
    },
  );

  scope.put(
    '/api/songs/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        params: IdParam,
        description: `${songFormDescription} Every file is optional; artistId too (absent keeps the artist).`,
        consumes: ['multipart/form-data'],
        response: { 200: textResponse(ServerMessages.songUpdated) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      // Before the body is read: a missing song costs no upload.
      if (!(await songs.exists(id))) throw notFound(ServerMessages.notFound);
      const form = await readUploadForm(request, upload);
      const audio = form.files.songFile ?? null;
      const image = form.files.imageFile ?? null;
      // An empty artistId (the select left alone) keeps the artist.
      const { artistId, ...rest } = form.fields;
      let fields: z.infer<typeof SongEditFields>;
      try {
        fields = parseFormFields(SongEditFields, artistId?.trim() ? numericArtistId(form.fields) : rest, {
          name: '',
          genre: '',
        });
      } catch (error) {
        await discardAll([audio, image]);
        throw error;
      }
      await songs.update(id, { name: fields.name, genre: fields.genre, artistId: fields.artistId, audio, image });
      sendText(reply, 200, ServerMessages.songUpdated);
      return reply;
    },
  );

  scope.delete(
    '/api/songs/:id',
    {
      config: { access: 'admin' },
      schema: { tags, params: IdParam, response: { 200: textResponse(ServerMessages.songDeleted) } },
    },
    async (request, reply) => {
      await songs.remove(request.params.id);
      sendText(reply, 200, ServerMessages.songDeleted);
      return reply;
    },
  );
}
