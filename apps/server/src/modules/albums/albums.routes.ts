import { AlbumMessages, endpoints, fileField, ServerMessages } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { badRequest, notFound } from '../../http/errors.js';
import { requireViewer } from '../../http/session.js';
import { declaredUpload, readUploadForm } from '../../http/upload-form.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { ImageWork } from '../../media/image-work.js';
import { discardAll, uploadStagers } from '../../media/staging.js';
import { toSongJson } from '../songs/songs.presenter.js';
import { toAlbumJson, toAlbumPageJson, toAlbumSummaryJson } from './albums.presenter.js';
import type { RatingOf } from '../shared-deps.js';
import type { AlbumsService } from './albums.service.js';

/** Reads: any signed-in user, like the rest of the catalogue (401 otherwise). */
export function albumsReadRoutes(app: App, albums: AlbumsService, ratingOf: RatingOf): void {
  route(app, endpoints.albums.list, async (request) => {
    const { id, hiddenLibraries } = await requireViewer(request);
    return toAlbumPageJson(await albums.page(request.query, hiddenLibraries, id));
  });

  route(app, endpoints.albums.get, async (request) => {
    const user = await requireViewer(request);
    const { id } = request.params;
    const [album, rating] = await Promise.all([albums.get(user, id), ratingOf('album', user.id, id)]);
    return toAlbumJson(album, rating);
  });
}

/** Admin writes (the route guard checks the role): JSON bodies; the cover is albumCoverRoutes'. */
export function albumsWriteRoutes(app: App, albums: AlbumsService): void {
  route(app, endpoints.albums.create, async (request) => {
    return toAlbumSummaryJson(await albums.create(request.body));
  });

  route(app, endpoints.albums.update, async (request) => {
    return toAlbumSummaryJson(await albums.update(request.params.id, request.body));
  });

  route(app, endpoints.albums.remove, async (request) => {
    await albums.remove(request.params.id);
  });

  route(app, endpoints.albums.setSongAlbum, async (request) => {
    const user = await requireViewer(request);
    const { row, marks } = await albums.placeSong(user, request.params.id, request.body);
    return toSongJson(row, marks);
  });
}

/** Admins: an album's cover, through the media pipeline's image staging; registered in an upload scope. */
export function albumCoverRoutes(scope: App, albums: AlbumsService, store: BlobStore, images: ImageWork): void {
  const cover = declaredUpload(endpoints.albums.setCover, uploadStagers(store, images), discardAll);
  route(scope, endpoints.albums.setCover, async (request) => {
    const { id } = request.params;
    // Before the body is read: a missing album costs no upload.
    if (!(await albums.exists(id))) throw notFound(ServerMessages.albumNotFound);
    const form = await readUploadForm(request, cover);
    const image = form.files.image;
    if (image === undefined)
      throw badRequest(AlbumMessages.coverRequired, fileField(endpoints.albums.setCover, 'image'));
    return toAlbumSummaryJson(await albums.setCover(id, image));
  });
}
