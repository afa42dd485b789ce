import { endpoints, fileField } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { badRequest } from '../../http/errors.js';
import { requireUser } from '../../http/session.js';
import { declaredUpload, readUploadForm } from '../../http/upload-form.js';
import type { SharedRateLimit } from '../../plugins/rate-limit.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { ImageWork } from '../../media/image-work.js';
import { discardAll, uploadStagers } from '../../media/staging.js';
import { toUserJson } from './users.presenter.js';
import type { UsersPhotoService } from './users-photo.service.js';

export const PHOTO_REQUIRED_MESSAGE = 'Choose an image to upload';
const PHOTO_FIELD = fileField(endpoints.users.updatePhoto, 'image');

/** Profile photos (`updatePhoto`, multipart, and `removePhoto`): self or admin. */
export function usersPhotoRoutes(
  scope: App,
  photos: UsersPhotoService,
  store: BlobStore,
  images: ImageWork,
  /** The upload rate limit shared with the playlist routes. */
  uploads: SharedRateLimit,
): void {
  route(scope, endpoints.users.updatePhoto, { preHandler: uploads }, async (request) => {
    const actor = await requireUser(request);
    const { id } = request.params;
    await photos.assertCanChange(actor, id);
    const stagers = uploadStagers(store, images, () => photos.assertCanUpload(actor));
    const form = await readUploadForm(request, declaredUpload(endpoints.users.updatePhoto, stagers, discardAll));
    const photo = form.files[PHOTO_FIELD];
    if (photo === undefined) throw badRequest(PHOTO_REQUIRED_MESSAGE, PHOTO_FIELD);
    return toUserJson(await photos.setPhoto(actor, id, photo));
  });

  route(scope, endpoints.users.removePhoto, async (request) =>
    toUserJson(await photos.removePhoto(await requireUser(request), request.params.id)),
  );
}
