import { PlayRequest, RecentPlaysResponse } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { requireUser } from '../../http/session.js';
import type { PlaysService } from './plays.service.js';

const tags = ['plays'];

/** The caller's own play history: a session is required and nobody reads or writes another user's. */
export function playsRoutes(app: App, plays: PlaysService): void {
  app.post(
    '/api/plays',
    { config: { access: 'session' }, schema: { tags, body: PlayRequest } },
    async (request, reply) => {
      const user = await requireUser(request);
      await plays.record(user.id, request.body.songId);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/plays/recent',
    { config: { access: 'session' }, schema: { tags, response: { 200: RecentPlaysResponse } } },
    async (request) => {
      const user = await requireUser(request);
      return plays.recent(user.id);
    },
  );
}
