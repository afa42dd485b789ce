import { ArtistEditFields, ArtistFormFields, endpoints, ServerMessages } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { notFound } from '../../http/errors.js';
import { requireViewer } from '../../http/session.js';
import { declaredUpload, parseUploadFields, readUploadForm } from '../../http/upload-form.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { ImageWork } from '../../media/image-work.js';
import { discardAll, uploadStagers } from '../../media/staging.js';
import { toArtistJson } from './artists.presenter.js';
import type { ArtistRatingsOf, RatingOf } from '../shared-deps.js';
import type { ArtistsService } from './artists.service.js';

/** Reads: any signed-in user, like the rest of the catalogue (401 otherwise). Photos themselves are public media. */
export function artistsReadRoutes(
  app: App,
  artists: ArtistsService,
  { ratingOf, artistRatingsOf }: { ratingOf: RatingOf; artistRatingsOf: ArtistRatingsOf },
): void {
  route(app, endpoints.artists.list, async (request) => {
    const { id: userId, hiddenLibraries } = await requireViewer(request);
    const { limit, sort } = request.query;
    if (sort !== 'rating') return (await artists.list(hiddenLibraries, limit)).map(toArtistJson);
    // The whole list (shared by every user, by name) reordered by the caller's own stars, then cut to `limit`.
    const [list, ratings] = await Promise.all([artists.list(hiddenLibraries), artistRatingsOf(userId)]);
    return byRating(list, ratings).slice(0, limit).map(toArtistJson);
  });

  route(app, endpoints.artists.get, async (request) => {
    const { id: userId, hiddenLibraries } = await requireViewer(request);
    const { id } = request.params;
    // The caller's own stars (issue 28) on the one artist's answer; the lists are the same for every user.
    const [artist, rating] = await Promise.all([artists.get(id, hiddenLibraries), ratingOf('artist', userId, id)]);
    return { ...toArtistJson(artist), rating };
  });

  route(app, endpoints.artists.credits, async (request) => {
    return artists.credits(await requireViewer(request), request.params.id, request.query);
  });
}

/** The rated first, most stars first (a stable sort keeps the list's name order among equals), then the unrated. */
export function byRating<Row extends { id: number }>(
  rows: readonly Row[],
  ratings: ReadonlyMap<number, number>,
): Row[] {
  return [...rows].sort((a, b) => (ratings.get(b.id) ?? 0) - (ratings.get(a.id) ?? 0));
}

/** Admin writes; registered in the module's upload scope (registerUploadScope). */
export function artistsWriteRoutes(scope: App, artists: ArtistsService, store: BlobStore, images: ImageWork): void {
  const stagers = uploadStagers(store, images);

  const create = declaredUpload(endpoints.artists.create, stagers, discardAll);
  route(scope, endpoints.artists.create, async (request) => {
    const form = await readUploadForm(request, create);
    const image = form.files.image ?? null;
    const fields = await parseUploadFields(ArtistFormFields, form.fields, () => discardAll([image]), { name: '' });
    return toArtistJson(await artists.create(fields.name, image));
  });

  const update = declaredUpload(endpoints.artists.update, stagers, discardAll);
  route(scope, endpoints.artists.update, async (request) => {
    const { id } = request.params;
    // Before the body is read: a missing artist costs no upload.
    if (!(await artists.exists(id))) throw notFound(ServerMessages.artistNotFound);
    const form = await readUploadForm(request, update);
    const image = form.files.image ?? null;
    const fields = await parseUploadFields(ArtistEditFields, form.fields, () => discardAll([image]));
    return toArtistJson(await artists.update(id, { name: fields.name, image }));
  });

  route(scope, endpoints.artists.remove, async (request) => {
    await artists.remove(request.params.id);
  });
}
