import { endpoints } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { requireViewer } from '../../http/session.js';
import type { PlaysService } from './plays.service.js';

/** The caller's own play history: a session is required and nobody reads or writes another user's. */
export function playsRoutes(app: App, plays: PlaysService): void {
  route(app, endpoints.plays.record, async (request) => {
    const user = await requireViewer(request);
    await plays.record(user, request.body.songId);
    await plays.started(user.id, request.body.songId);
  });

  route(app, endpoints.plays.listen, async (request) => {
    await plays.listenedOnWeb(await requireViewer(request), request.body);
  });

  route(app, endpoints.plays.recent, async (request) => {
    const user = await requireViewer(request);
    return plays.recent(user.id);
  });
}
