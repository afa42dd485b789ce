import { endpoints } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { requireViewer } from '../../http/session.js';
import type { SongPagesService } from '../songs/song-pages.service.js';
import { toSongPageJson, toSongsJson } from '../songs/songs.presenter.js';
import type { LikesService } from './likes.service.js';

/** Any signed-in user likes for themselves; both writes are idempotent. */
export function likesRoutes(app: App, likes: LikesService, pages: SongPagesService): void {
  route(app, endpoints.likes.list, async (request) =>
    toSongsJson(await likes.liked(await requireViewer(request), request.query.limit, request.query.offset)),
  );

  route(app, endpoints.likes.page, async (request) =>
    toSongPageJson(await pages.liked(await requireViewer(request), request.query)),
  );

  route(app, endpoints.likes.like, async (request) => {
    await likes.like(await requireViewer(request), request.params.id);
  });

  route(app, endpoints.likes.unlike, async (request) => {
    await likes.unlike(await requireViewer(request), request.params.id);
  });
}
