import type { Readable } from 'node:stream';
import { IdParam, IMAGE_MAX_BYTES, User } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { badRequest } from '../../http/errors.js';
import { requireUser } from '../../http/session.js';
import { readUploadForm } from '../../http/upload-form.js';
import type { SharedRateLimit } from '../../plugins/rate-limit.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { ImageWork } from '../media/image-work.js';
import { discardAll, stageImage } from '../media/media.service.js';
import { toUserJson } from './users.presenter.js';
import type { UsersPhotoService } from './users-photo.service.js';

const tags = ['users'];
export const PHOTO_REQUIRED_MESSAGE = 'Choose an image to upload';

/** `PUT /api/users/{id}/update-photo` (multipart `image`) and `DELETE /api/users/{id}/remove-photo`: self or admin. */
export function usersPhotoRoutes(
  scope: App,
  photos: UsersPhotoService,
  store: BlobStore,
  images: ImageWork,
  /** The upload rate limit shared with the playlist routes. */
  uploads: SharedRateLimit,
): void {
  scope.put(
    '/api/users/:id/update-photo',
    {
      config: { access: 'owner' },
      preHandler: uploads,
      schema: {
        tags,
        params: IdParam,
        description: 'multipart/form-data: image (JPEG, PNG or WebP, at most 15 MB and 40 megapixels by default).',
        consumes: ['multipart/form-data'],
        response: { 200: User },
      },
    },
    async (request) => {
      const actor = await requireUser(request);
      const { id } = request.params;
      await photos.assertCanChange(actor, id);
      const stagers = {
        image: async (stream: Readable) => {
          await photos.assertCanUpload(actor);
          return stageImage(store, stream, 'image', images);
        },
      };
      const form = await readUploadForm(request, {
        files: stagers,
        discard: discardAll,
        maxFileBytes: IMAGE_MAX_BYTES,
      });
      if (form.files.image === undefined) throw badRequest(PHOTO_REQUIRED_MESSAGE, 'image');
      return toUserJson(await photos.setPhoto(actor, id, form.files.image));
    },
  );

  scope.delete(
    '/api/users/:id/remove-photo',
    { config: { access: 'owner' }, schema: { tags, params: IdParam, response: { 200: User } } },
    async (request) => toUserJson(await photos.removePhoto(await requireUser(request), request.params.id)),
  );
}
