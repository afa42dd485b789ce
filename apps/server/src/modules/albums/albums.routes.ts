import { endpoints } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { requireUser } from '../../http/session.js';
import { toSongJson } from '../songs/songs.presenter.js';
import { toAlbumJson, toAlbumPageJson, toAlbumSummaryJson } from './albums.presenter.js';
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

/** Admin writes (the route guard checks the role): JSON bodies (album covers come with the import and the upload form, later in issue 12). */
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
    const user = await requireUser(request);
    const { row, marks } = await albums.placeSong(user, request.params.id, request.body);
    return toSongJson(row, marks);
  });
}
