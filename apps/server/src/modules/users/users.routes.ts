import { endpoints } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { clearSessionCookie, requireUser, sessionToken } from '../../http/session.js';
import type { AppDeps } from '../shared-deps.js';
import { toUserJson } from './users.presenter.js';
import type { UsersService } from './users.service.js';

export function usersRoutes(app: App, { config }: Pick<AppDeps, 'config'>, users: UsersService): void {
  route(app, endpoints.users.list, async (request) => {
    const { rows, total, nextCursor } = await users.list(request.query);
    const now = new Date();
    return { users: rows.map((row) => toUserJson(row, now)), total, nextCursor };
  });

  route(app, endpoints.users.create, async (request) => toUserJson(await users.create(request.body)));

  route(app, endpoints.users.byId, async (request) => {
    const actor = await requireUser(request);
    return toUserJson(await users.getById(actor, request.params.id));
  });

  route(app, endpoints.users.byUsername, async (request) => {
    const actor = await requireUser(request);
    return toUserJson(await users.getByUsername(actor, request.params.username));
  });

  route(app, endpoints.users.update, async (request) => {
    const actor = await requireUser(request);
    return toUserJson(await users.update(actor, request.params.id, request.body, sessionToken(request)));
  });

  // The body is optional: only deleting one's own account needs one ({ currentPassword }).
  route(app, endpoints.users.remove, async (request, reply) => {
    const actor = await requireUser(request);
    await users.remove(actor, request.params.id, request.body?.currentPassword);
    if (actor.id === request.params.id) clearSessionCookie(request, reply, config);
  });
}
