import {
  CreateUserRequest,
  DeleteUserRequest,
  IdParam,
  UpdateUserRequest,
  User,
  UserListQuery,
  UserListResponse,
} from '@tonearm/contract';
import { z } from 'zod';
import type { App } from '../../http/app-types.js';
import { clearSessionCookie, requireUser, sessionToken } from '../../http/session.js';
import type { AppDeps } from '../shared-deps.js';
import { toUserJson } from './users.presenter.js';
import type { UsersService } from './users.service.js';

const tags = ['users'];
const UsernameParam = z.object({ username: z.string().trim().min(1).max(254) });

export function usersRoutes(app: App, { config }: Pick<AppDeps, 'config'>, users: UsersService): void {
  app.get(
    '/api/users',
    { config: { access: 'admin' }, schema: { tags, querystring: UserListQuery, response: { 200: UserListResponse } } },
    async (request) => {
      const { rows, total } = await users.list(request.query);
      const now = new Date();
      return { users: rows.map((row) => toUserJson(row, now)), total };
    },
  );

  app.post(
    '/api/users',
    { config: { access: 'admin' }, schema: { tags, body: CreateUserRequest, response: { 201: User } } },
    async (request, reply) => {
      const created = await users.create(request.body);
      return reply.status(201).send(toUserJson(created));
    },
  );

  app.get(
    '/api/users/id/:id',
    { config: { access: 'owner' }, schema: { tags, params: IdParam, response: { 200: User } } },
    async (request) => {
      const actor = await requireUser(request);
      return toUserJson(await users.getById(actor, request.params.id));
    },
  );

  app.get(
    '/api/users/username/:username',
    { config: { access: 'owner' }, schema: { tags, params: UsernameParam, response: { 200: User } } },
    async (request) => {
      const actor = await requireUser(request);
      return toUserJson(await users.getByUsername(actor, request.params.username));
    },
  );

  app.put(
    '/api/users/:id',
    {
      config: { access: 'owner' },
      schema: { tags, params: IdParam, body: UpdateUserRequest, response: { 200: User } },
    },
    async (request) => {
      const actor = await requireUser(request);
      return toUserJson(await users.update(actor, request.params.id, request.body, sessionToken(request)));
    },
  );

  app.delete(
    '/api/users/:id',
    // The body is optional: only deleting one's own account needs one ({ currentPassword }).
    { config: { access: 'owner' }, schema: { tags, params: IdParam, body: DeleteUserRequest.nullish() } },
    async (request, reply) => {
      const actor = await requireUser(request);
      await users.remove(actor, request.params.id, request.body?.currentPassword);
      if (actor.id === request.params.id) clearSessionCookie(request, reply, config);
      return reply.status(204).send();
    },
  );
}
