import { endpoints } from '@tonearm/contract';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { clearSessionCookie, requireUser, sessionToken, setSessionCookie } from '../../http/session.js';
import { perMinute } from '../../plugins/rate-limit.js';
import type { AppDeps } from '../shared-deps.js';
import { toUserJson } from '../users/users.presenter.js';
import type { AuthService } from './auth.service.js';
import { isLocalRequest } from './local-request.js';

export function authRoutes(app: App, { config }: Pick<AppDeps, 'config'>, auth: AuthService): void {
  const attempts = { config: perMinute(config.authRateLimitPerMinute) };
  const registrationContext = (request: FastifyRequest) => ({
    local: isLocalRequest(request.ip, request.headers, config.trustProxy, config.publicUrl),
  });

  route(app, endpoints.auth.register, attempts, async (request) => {
    await auth.register(request.body, registrationContext(request));
  });

  route(app, endpoints.auth.login, attempts, async (request, reply) => {
    const { user, token } = await auth.login(request.body, sessionToken(request));
    setSessionCookie(request, reply, config, token);
    return toUserJson(user);
  });

  route(app, endpoints.auth.logout, async (request, reply) => {
    await auth.logout(sessionToken(request));
    clearSessionCookie(request, reply, config);
  });

  route(app, endpoints.auth.logoutAll, async (request, reply) => {
    const user = await requireUser(request);
    await auth.logoutEverywhere(user.id);
    clearSessionCookie(request, reply, config);
  });

  route(app, endpoints.auth.logoutAllWithAppKeys, async (request, reply) => {
    const user = await requireUser(request);
    await auth.logoutEverywhereWithAppKeys(user.id);
    clearSessionCookie(request, reply, config);
  });

  route(app, endpoints.auth.options, (request) => auth.options(registrationContext(request)));

  route(app, endpoints.auth.me, async (request) => toUserJson(await requireUser(request)));

  route(app, endpoints.auth.ping, () => undefined);
}
