import { ServerMessages } from '@tonearm/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { UserRow } from '../db/schema.js';
import type { App } from './app-types.js';
import { unauthorized } from './errors.js';
import type { SessionStore } from '../sessions/session-store.js';

export const SESSION_COOKIE = 'tonearm_session';

/** Which libraries a user may not see (modules/libraries/library-access.ts). */
export interface HiddenLibraries {
  hiddenFrom(user: Pick<UserRow, 'id' | 'role'>): Promise<readonly number[]>;
}

/** The signed-in user with the libraries hidden from them: whom catalogue reads answer. */
export type SessionViewer = UserRow & { hiddenLibraries: readonly number[] };

declare module 'fastify' {
  interface FastifyInstance {
    sessionStore: SessionStore;
    libraryAccess: HiddenLibraries;
  }
  interface FastifyRequest {
    /** Memoized session lookup of this request; use currentUser(request). */
    currentUserLookup: Promise<UserRow | null> | null;
  }
}

/** Makes sessions available to every route: call once on the root instance, before any module registers. */
export function installAuth(app: App, store: SessionStore, libraryAccess: HiddenLibraries): void {
  app.decorate('sessionStore', store);
  app.decorate('libraryAccess', libraryAccess);
  app.decorateRequest('currentUserLookup', null);
}

/**
 * The session token from a raw Cookie header, read as @fastify/cookie reads it (cookie 2.x `parseCookie`): pairs
 * split at `;`, names and values trimmed of spaces and tabs, the first pair of the name wins, and a value with `%`
 * is percent-decoded when it can be. For handlers that answer before Fastify parses cookies (media-handler.ts).
 */
export function sessionTokenOf(cookieHeader: string | undefined): string | undefined {
  if (cookieHeader === undefined) return undefined;
  for (const pair of cookieHeader.split(';')) {
    const equals = pair.indexOf('=');
    if (equals === -1 || trimBlanks(pair.slice(0, equals)) !== SESSION_COOKIE) continue;
    const value = trimBlanks(pair.slice(equals + 1));
    return value.includes('%') ? decodeOrKeep(value) : value;
  }
  return undefined;
}

const trimBlanks = (text: string) => text.replace(/^[ \t]+|[ \t]+$/g, '');

function decodeOrKeep(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export function sessionToken(request: FastifyRequest): string | undefined {
  return request.cookies[SESSION_COOKIE];
}

/**
 * The signed-in user, or null: looked up once per request, from the session store's memory while no write could have
 * changed it (SessionStore.resolve).
 */
export function currentUser(request: FastifyRequest): Promise<UserRow | null> {
  if (request.currentUserLookup === null) {
    const token = sessionToken(request);
    request.currentUserLookup =
      token === undefined ? Promise.resolve(null) : request.server.sessionStore.resolve(token);
  }
  return request.currentUserLookup;
}

/** The signed-in user, or a 401. */
export async function requireUser(request: FastifyRequest): Promise<UserRow> {
  const user = await currentUser(request);
  if (user === null) throw unauthorized(ServerMessages.notAuthenticated);
  return user;
}

/** The signed-in user and the libraries hidden from them (issue 25), or a 401. */
export async function requireViewer(request: FastifyRequest): Promise<SessionViewer> {
  const user = await requireUser(request);
  return { ...user, hiddenLibraries: await request.server.libraryAccess.hiddenFrom(user) };
}

/**
 * Just the user id of the session, answered from a per-process memory cache for a few seconds after each database
 * check: for hot paths such as audio range requests, where a query per request is too much. Logout and user deletion
 * clear the cache entry in this process immediately; other instances notice within the cache period (0.5 s on
 * PostgreSQL, see sessionCacheMsFor).
 */
export async function sessionUserId(request: FastifyRequest): Promise<number | null> {
  const token = sessionToken(request);
  return token === undefined ? null : request.server.sessionStore.resolveUserId(token);
}

function isSecure(request: FastifyRequest, config: Config): boolean {
  return config.publicUrl?.startsWith('https:') === true || request.protocol === 'https';
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, config: Config, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: isSecure(request, config),
    maxAge: config.sessionTtlSeconds,
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply, config: Config): void {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/', secure: isSecure(request, config) });
}
