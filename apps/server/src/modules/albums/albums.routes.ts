import { endpoints } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { requireUser } from '../../http/session.js';
import { toAlbumJson, toAlbumPageJson } from './albums.presenter.js';
import type { AlbumsService } from './albums.service.js';

/** Reads: any signed-in user, like the rest of the catalogue (401 otherwise). */
export function albumsReadRoutes(app: App, albums: AlbumsService): void {
  route(app, endpoints.albums.list, async (request) => {
    await requireUser(request);
    return toAlbumPageJson(await albums.page(request.query));
  });

  route(app, endpoints.albums.get, async (request) => {
    const user = await requireUser(request);
    return toAlbumJson(await albums.get(user, request.params.id));
  });
}
