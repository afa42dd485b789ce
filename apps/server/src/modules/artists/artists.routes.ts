import type { Readable } from 'node:stream';
import { Artist, ArtistFormFields, IdParam, IMAGE_MAX_BYTES, ServerMessages } from '@tonearm/contract';
import { z } from 'zod';
import type { App } from '../../http/app-types.js';
import { notFound } from '../../http/errors.js';
import { requireUser } from '../../http/session.js';
import { parseFormFields, readUploadForm } from '../../http/upload-form.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { ImageWork } from '../media/image-work.js';
import { discardAll, stageImage } from '../media/media.service.js';
import { toArtistJson } from './artists.presenter.js';
import type { ArtistsService } from './artists.service.js';

const tags = ['artists'];
const ArtistEditFields = ArtistFormFields.partial();
const artistFormDescription = 'multipart/form-data: name, image (JPEG, PNG or WebP, at most 15 MB; optional).';

/** Reads: any signed-in user, like the rest of the catalogue (401 otherwise). Photos themselves are public media. */
export function artistsReadRoutes(app: App, artists: ArtistsService): void {
  app.get(
    '/artists',
    { config: { access: 'session' }, schema: { tags, response: { 200: z.array(Artist) } } },
    async (request) => {
      await requireUser(request);
      return (await artists.list()).map(toArtistJson);
    },
  );

  app.get(
    '/artists/:id',
    { schema: { tags, params: IdParam, response: { 200: Artist } }, config: { access: 'session' } },
    async (request) => {
      await requireUser(request);
      return toArtistJson(await artists.get(request.params.id));
    },
  );
}

/** Admin writes; registered in the module's upload scope (registerUploadScope). */
export function artistsWriteRoutes(scope: App, artists: ArtistsService, store: BlobStore, images: ImageWork): void {
  const stagers = { image: (stream: Readable) => stageImage(store, stream, 'image', images) };
  const upload = { files: stagers, discard: discardAll, maxFileBytes: IMAGE_MAX_BYTES };

  scope.post(
    '/artists',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description: artistFormDescription,
        consumes: ['multipart/form-data'],
        response: { 201: Artist },
      },
    },
    async (request, reply) => {
      const form = await readUploadForm(request, upload);
      const image = form.files.image ?? null;
      let fields: ArtistFormFields;
      try {
        fields = parseFormFields(ArtistFormFields, form.fields, { name: '' });
      } catch (error) {
        await discardAll([image]);
        throw error;
      }
      return reply.status(201).send(toArtistJson(await artists.create(fields.name, image)));
    },
  );

  scope.put(
    '/artists/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        params: IdParam,
        description: `${artistFormDescription} Both optional: what is absent is kept.`,
        consumes: ['multipart/form-data'],
        response: { 200: Artist },
      },
    },
    async (request) => {
      const { id } = request.params;
      // Before the body is read: a missing artist costs no upload.
      if (!(await artists.exists(id))) throw notFound(ServerMessages.artistNotFound);
      const form = await readUploadForm(request, upload);
      const image = form.files.image ?? null;
      let fields: z.infer<typeof ArtistEditFields>;
      try {
        fields = parseFormFields(ArtistEditFields, form.fields);
      } catch (error) {
        await discardAll([image]);
        throw error;
      }
      return toArtistJson(await artists.update(id, { name: fields.name, image }));
    },
  );

  scope.delete(
    '/artists/:id',
    { config: { access: 'admin' }, schema: { tags, params: IdParam } },
    async (request, reply) => {
      await artists.remove(request.params.id);
      return reply.status(204).send();
    },
  );
}
