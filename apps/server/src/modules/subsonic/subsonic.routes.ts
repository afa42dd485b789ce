import { SubsonicErrorCodes, SubsonicMessages, endpoints, type SubsonicErrorCode } from '@tonearm/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/errors.js';
import { requireUser } from '../../http/session.js';
import type { ApiKeysService } from './api-keys.service.js';
import type { AppPasswordsService } from './app-passwords.service.js';
import {
  envelope,
  errorBody,
  renderSubsonic,
  SubsonicError,
  SubsonicRateLimited,
  type SubsonicNode,
} from './subsonic.response.js';
import { SENT } from './subsonic-method.js';
import { SubsonicParams } from './subsonic-params.js';
import type { SubsonicService } from './subsonic.service.js';

/** A formPost body holds the same parameters as a query string; this bounds it. */
const FORM_BODY_LIMIT = 64 * 1024;

/** `/api/users/:id/api-keys`: the owner or an admin (the service answers 404 to anyone else). */
export function apiKeysRoutes(app: App, keys: ApiKeysService): void {
  route(app, endpoints.apiKeys.create, async (request) => {
    const actor = await requireUser(request);
    return keys.create(actor, request.params.id, request.body.name);
  });

  route(app, endpoints.apiKeys.list, async (request) => {
    const actor = await requireUser(request);
    return { apiKeys: await keys.list(actor, request.params.id) };
  });

  route(app, endpoints.apiKeys.revoke, async (request) => {
    const actor = await requireUser(request);
    await keys.revoke(actor, request.params.id, request.params.keyId);
  });
}

/** `/api/users/:id/subsonic-password`: the owner or an admin (the service answers 404 to anyone else). */
export function appPasswordRoutes(app: App, passwords: AppPasswordsService): void {
  route(app, endpoints.appPassword.create, async (request) => {
    const actor = await requireUser(request);
    return passwords.generate(actor, request.params.id);
  });

  route(app, endpoints.appPassword.status, async (request) => {
    const actor = await requireUser(request);
    return passwords.status(actor, request.params.id);
  });

  route(app, endpoints.appPassword.revoke, async (request) => {
    const actor = await requireUser(request);
    await passwords.revoke(actor, request.params.id);
  });
}

function send(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: { serverVersion: string; status: 'ok' | 'failed'; body: SubsonicNode },
  http = 200,
) {
  const params = new SubsonicParams(request.query, request.body);
  const format = params.get('f') === 'json' ? 'json' : 'xml';
  const { contentType, payload } = renderSubsonic(format, envelope(answer.serverVersion, answer.status), answer.body);
  return reply.status(http).header('content-type', contentType).send(payload);
}

/** The web API's refusals, as the Subsonic codes that mean the same (a service's 404 is a missing item). */
const CODE_OF_STATUS: Readonly<Record<number, SubsonicErrorCode>> = {
  403: SubsonicErrorCodes.notAuthorized,
  404: SubsonicErrorCodes.notFound,
};

/** What went wrong before or outside a method, as a Subsonic error: the client's fault stays a normal 200 answer. */
function asSubsonicError(error: unknown): { error: SubsonicError; http: number } {
  if (error instanceof SubsonicRateLimited) return { error, http: error.http };
  if (error instanceof SubsonicError) return { error, http: 200 };
  const status = (error as { statusCode?: unknown; status?: unknown }).statusCode ?? (error as HttpError).status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const message = error instanceof HttpError ? error.message : SubsonicMessages.badRequest;
    return { error: new SubsonicError(CODE_OF_STATUS[status] ?? SubsonicErrorCodes.generic, message), http: 200 };
  }
  return { error: new SubsonicError(SubsonicErrorCodes.generic, SubsonicMessages.serverError), http: 500 };
}

/**
 * `/rest/<method>` and `/rest/<method>.view`, GET or POST with a form body (OpenSubsonic formPost). Subsonic apps are
 * no browsers and send no session cookie, so the routes are public to the access guard: the credentials are the
 * call's own parameters, checked by the service. Everything is answered in the Subsonic envelope, errors too.
 */
export async function subsonicRoutes(app: App, subsonic: SubsonicService, serverVersion: string): Promise<void> {
  await app.register((scope, _options, done) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_request, body, done) => {
        const form: Record<string, string[]> = {};
        for (const [name, value] of new URLSearchParams(body as string)) (form[name] ??= []).push(value);
        done(null, form);
      },
    );
    scope.setErrorHandler((error, request, reply) => {
      const { error: answer, http } = asSubsonicError(error);
      if (http >= 500) request.log.error({ err: error }, 'subsonic call failed');
      if (answer instanceof SubsonicRateLimited) void reply.header('retry-after', String(answer.retryAfterSeconds));
      return send(request, reply, { serverVersion, status: 'failed', body: errorBody(answer) }, http);
    });
    scope.route<{ Params: { method: string } }>({
      method: ['GET', 'POST'],
      url: '/rest/:method',
      config: { access: 'public' },
      // Not part of the JSON API's OpenAPI document: docs/subsonic.md describes it.
      schema: { hide: true },
      handler: async (request, reply) => {
        const name = request.params.method.replace(/\.view$/, '');
        const body = await subsonic.call(name, new SubsonicParams(request.query, request.body), { request, reply });
        return body === SENT ? reply : send(request, reply, { serverVersion, status: 'ok', body });
      },
    });
    done();
  });
}
