import { IdParam, Paging, Song } from '@tonearm/contract';
import { z } from 'zod';
import type { App } from '../../http/app-types.js';
import { requireUser } from '../../http/session.js';
import { toSongsJson } from '../songs/songs.presenter.js';
import type { LikesService } from './likes.service.js';

const tags = ['likes'];

/** Any signed-in user likes for themselves; both writes are idempotent and answer 204. */
export function likesRoutes(app: App, likes: LikesService): void {
  app.get(
    '/api/songs/liked',
    { config: { access: 'session' }, schema: { tags, querystring: Paging, response: { 200: z.array(Song) } } },
    async (request) =>
      toSongsJson(await likes.liked(await requireUser(request), request.query.limit, request.query.offset)),
  );

  app.put(
    '/api/songs/:id/like',
    { config: { access: 'session' }, schema: { tags, params: IdParam } },
    async (request, reply) => {
      await likes.like(await requireUser(request), request.params.id);
      return reply.status(204).send();
    },
  );

  app.delete(
    '/api/songs/:id/like',
    { config: { access: 'session' }, schema: { tags, params: IdParam } },
    async (request, reply) => {
      await likes.unlike(await requireUser(request), request.params.id);
      return reply.status(204).send();
    },
  );
}
