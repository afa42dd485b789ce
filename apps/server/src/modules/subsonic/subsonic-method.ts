import { SubsonicErrorCodes, SubsonicMessages } from '@tonearm/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '../../db/schema.js';
import { HttpError } from '../../http/errors.js';
import type { SessionViewer } from '../../http/session.js';
import { SubsonicError, type SubsonicNode } from './subsonic.response.js';
import type { SubsonicParams } from './subsonic-params.js';

/** How a caller proved who they are: an API key, the app password (`u`+`p`), or its md5 token (`u`+`t`+`s`). */
export type SubsonicAuthVia = 'apiKey' | 'password' | 'token';

/** Who proved who they are, and how (SubsonicAuth). */
export interface SubsonicIdentity {
  user: UserRow;
  via: SubsonicAuthVia;
}

/** Who made a call, and how they proved it (`tokenInfo` answers for API keys only). */
export interface SubsonicCaller {
  /** The user, with the libraries hidden from them (every method answers only from the others). */
  user: SessionViewer;
  via: SubsonicAuthVia;
}

/** One call as a method sees it: its parameters, the signed-in caller, and the HTTP exchange (for media answers). */
export interface SubsonicCall {
  params: SubsonicParams;
  caller: SubsonicCaller;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** What a method that sent its own answer (audio, an image) returns, instead of the envelope's body. */
export const SENT = Symbol('subsonic answer sent');
export type SubsonicAnswer = SubsonicNode | typeof SENT;

export interface MethodEntry {
  readonly run: (call: SubsonicCall) => SubsonicAnswer | Promise<SubsonicAnswer>;
}

/** A group of methods by name (methods/*.methods.ts); the service joins the groups. */
export type MethodTable = Readonly<Record<string, MethodEntry>>;

export const subsonicFail = (code: keyof typeof SubsonicErrorCodes, message: string): SubsonicError =>
  new SubsonicError(SubsonicErrorCodes[code], message);

/** Error 70: what the id names does not exist, or the caller may not see it (the same answer, as 404 is in /api). */
export const notFoundError = (what: string): SubsonicError => subsonicFail('notFound', SubsonicMessages.notFound(what));

/** `work`, with a service's 404 answered as Subsonic's 70 (`what` not found). */
export async function orNotFound<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) throw notFoundError(what);
    throw error;
  }
}

/** The value of a parameter the method cannot do without (error 10 when it is missing). */
export function requiredParam(params: SubsonicParams, name: string): string {
  const value = params.get(name);
  if (value === undefined) throw subsonicFail('missingParameter', SubsonicMessages.missingParameter(name));
  return value;
}

/**
 * An optional whole-number parameter within [min, max]; absent gives `fallback`. A value that is no whole number
 * answers error 0 with a message naming the parameter; one out of range is clamped, as Subsonic servers do for
 * `size` and `count`.
 */
export function intParam(params: SubsonicParams, name: string, fallback: number, min: number, max: number): number {
  const raw = params.get(name);
  if (raw === undefined) return fallback;
  if (!/^-?\d{1,15}$/.test(raw)) throw subsonicFail('generic', SubsonicMessages.badNumber(name));
  return Math.min(max, Math.max(min, Number(raw)));
}
