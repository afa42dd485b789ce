import {
  accessAllows,
  AccessLevels,
  premiumRunning,
  ServerMessages,
  type Access,
  type Subject,
} from '@tonearm/contract';
import type { FastifyRequest, RouteOptions } from 'fastify';
import type { UserRow } from '../db/schema.js';
import { currentUser } from './session.js';
import type { App } from './app-types.js';
import { forbidden, unauthorized } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (issue 9): every route declares one; see `AccessLevels` in the contract. */
    access?: Access;
  }
}

/** The policy's view of a signed-in user. */
export function subjectOf(user: Pick<UserRow, 'id' | 'role' | 'premium_until'>, now: Date = new Date()): Subject {
  return { id: user.id, role: user.role, premium: premiumRunning(user.premium_until, now) };
}

/** What the guard answers to a caller below the declared level: no session 401, otherwise 403. */
function refusal(level: Access, user: UserRow | null): Error {
  if (user === null) return unauthorized(ServerMessages.notAuthenticated);
  return forbidden(level === 'premium' ? ServerMessages.premiumRequired : ServerMessages.forbidden);
}

async function guard(request: FastifyRequest): Promise<void> {
  const level = request.routeOptions.config.access;
  // Unmatched URLs (404 handler) have no route; a route without a declaration is refused at start (onReady).
  if (level === undefined || level === 'public') return;
  const user = await currentUser(request);
  if (!accessAllows(level, user && subjectOf(user))) throw refusal(level, user);
}

function declared(route: RouteOptions): Access | undefined {
  const level = (route.config as { access?: unknown } | undefined)?.access;
  return AccessLevels.find((known) => known === level);
}

/** OpenAPI: the session cookie for every non-public route, and the declared level as `x-access`. */
function documentAccess(route: RouteOptions, level: Access): void {
  const extension: Record<`x-${string}`, unknown> = { 'x-access': level };
  route.schema = Object.assign({}, route.schema, { security: level === 'public' ? [] : [{ session: [] }] }, extension);
}

/**
 * Installs the access policy on the root instance, before any route is registered: every route must declare
 * `config.access` (start-up fails naming the routes that do not), the declared level is enforced before the body
 * is read (so a refused upload costs no upload), and OpenAPI shows it. Rules that need the resource (the owner of a
 * playlist or an order) are the services', through the contract's policy predicates.
 */
export function installAccessPolicy(app: App): void {
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(route);
    const level = declared(route);
    if (level !== undefined) documentAccess(route, level);
  });
  app.addHook('onRequest', guard);
  app.addHook('onReady', (done) => {
    const missing = routes.filter((route) => declared(route) === undefined);
    const names = missing.map((route) => `${[route.method].flat().join(',')} ${route.url}`);
    done(names.length === 0 ? undefined : new Error(`Routes without an access declaration: ${names.join('; ')}`));
  });
}
