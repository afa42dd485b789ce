import { AuthOptions, LoginRequest, RegisterRequest, ServerMessages, User } from '@tonearm/contract';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../http/app-types.js';
import { clearSessionCookie, requireUser, sessionToken, setSessionCookie } from '../../http/session.js';
import { sendText, textResponse } from '../../http/text-response.js';
import { perMinute } from '../../plugins/rate-limit.js';
import type { AppDeps } from '../shared-deps.js';
import { toUserJson } from '../users/users.presenter.js';
import type { AuthService } from './auth.service.js';
import { isLocalRequest } from './local-request.js';

const tags = ['auth'];

export function authRoutes(app: App, { config }: Pick<AppDeps, 'config'>, auth: AuthService): void {
  const attempts = perMinute(config.authRateLimitPerMinute);
  const registrationContext = (request: FastifyRequest) => ({
    local: isLocalRequest(request.ip, request.headers, config.trustProxy),
  });

  app.post(
    '/api/auth/register',
    {
      config: { ...attempts, access: 'public' },
      schema: { tags, body: RegisterRequest, response: { 201: textResponse(ServerMessages.userRegistered) } },
    },
    async (request, reply) => {
      await auth.register(request.body, registrationContext(request));
      sendText(reply, 201, ServerMessages.userRegistered);
      return reply;
    },
  );

  app.post(
    '/api/auth/login',
    { config: { ...attempts, access: 'public' }, schema: { tags, body: LoginRequest, response: { 200: User } } },
    async (request, reply) => {
      const { user, token } = await auth.login(request.body, sessionToken(request));
      setSessionCookie(request, reply, config, token);
      return toUserJson(user);
    },
  );

  app.post('/api/auth/logout', { config: { access: 'public' }, schema: { tags } }, async (request, reply) => {
    await auth.logout(sessionToken(request));
    clearSessionCookie(request, reply, config);
    return reply.status(204).send();
  });

  app.post('/api/auth/logout-all', { config: { access: 'session' }, schema: { tags } }, async (request, reply) => {
    const user = await requireUser(request);
    await auth.logoutEverywhere(user.id);
    clearSessionCookie(request, reply, config);
    return reply.status(204).send();
  });

  app.get(
    '/api/auth/options',
    { config: { access: 'public' }, schema: { tags, response: { 200: AuthOptions } } },
    (request) => auth.options(registrationContext(request)),
  );

  app.get(
    '/api/auth/me',
    { config: { access: 'session' }, schema: { tags, response: { 200: User } } },
    async (request) => toUserJson(await requireUser(request)),
  );

  app.get(
    '/api/auth/ping',
    { config: { access: 'public' }, schema: { tags, response: { 200: textResponse(ServerMessages.pong) } } },
    (_, reply) => {
      sendText(reply, 200, ServerMessages.pong);
    },
  );
}
