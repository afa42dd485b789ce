/**
 * `t.as(caller).get(url)`: requests through app.inject as a signed-in user (their session cookie) or as nobody
 * (`as(null)`), answering the inject response.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { App } from '../src/http/app-types.js';
import { multipartBody, type FormValue } from './media.js';
import { checkSubsonicAnswer, subsonicMethodOf } from './subsonic-answers.js';

/** Who sends: anything holding a session cookie (a TestUser, `{ cookie }`); nobody without one (null, undefined). */
export type Caller = { readonly cookie?: string | undefined } | null | undefined;

/** The rest of a request besides method, url and body: headers, remoteAddress, query... */
export type RequestExtras = Omit<InjectOptions, 'method' | 'url' | 'payload' | 'body'>;

type Payload = InjectOptions['payload'];
type Answer = Promise<LightMyRequestResponse>;

/** Anything with a `parse`, e.g. a zod schema. */
export interface Parser<T> {
  parse(value: unknown): T;
}

export interface Client {
  /** Any request; the caller's cookie goes first in its headers. */
  inject(options: InjectOptions): Answer;
  get(url: string, extras?: RequestExtras): Answer;
  /** GET, with the JSON answer read through `schema` (whatever the status). */
  json<T>(url: string, schema: Parser<T>, extras?: RequestExtras): Promise<T>;
  post(url: string, payload?: Payload, extras?: RequestExtras): Answer;
  put(url: string, payload?: Payload, extras?: RequestExtras): Answer;
  patch(url: string, payload?: Payload, extras?: RequestExtras): Answer;
  delete(url: string, payload?: Payload, extras?: RequestExtras): Answer;
  /** A multipart/form-data request, as a browser sends a form. */
  form(method: 'POST' | 'PUT', url: string, fields: Record<string, FormValue>): Answer;
}

/** The URL an inject asks for, with its query (`url` and `query` options together). */
function urlOf(options: InjectOptions): string {
  const url = typeof options.url === 'string' ? options.url : (options.url?.pathname ?? '/');
  const query =
    options.query === undefined ? '' : new URLSearchParams(options.query as Record<string, string>).toString();
  return query === '' ? url : `${url}${url.includes('?') ? '&' : '?'}${query}`;
}

/** Every answer of the Subsonic API is checked against the OpenSubsonic schemas (test/subsonic-answers.ts). */
async function checkedIfSubsonic(options: InjectOptions, answer: Answer): Answer {
  const response = await answer;
  const url = urlOf(options);
  if (subsonicMethodOf(url) !== null) {
    checkSubsonicAnswer({
      url,
      httpMethod: options.method ?? 'GET',
      form: typeof options.payload === 'string' ? options.payload : undefined,
      status: response.statusCode,
      contentType: response.headers['content-type']?.toString(),
      body: response.body,
    });
  }
  return response;
}

/** The client of `app` for `caller`. */
export function clientOf(app: App, caller: Caller): Client {
  const inject = (options: InjectOptions): Answer => {
    const cookie = caller?.cookie;
    if (cookie === undefined) return checkedIfSubsonic(options, app.inject(options));
    return checkedIfSubsonic(options, app.inject({ ...options, headers: { cookie, ...options.headers } }));
  };
  const send =
    (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE') =>
    (url: string, payload?: Payload, extras: RequestExtras = {}): Answer =>
      inject({ ...extras, method, url, ...(payload === undefined ? {} : { payload }) });
  const get = (url: string, extras: RequestExtras = {}): Answer => inject({ ...extras, method: 'GET', url });
  return {
    inject,
    get,
    json: async (url, schema, extras) => schema.parse((await get(url, extras)).json()),
    post: send('POST'),
    put: send('PUT'),
    patch: send('PATCH'),
    delete: send('DELETE'),
    form: (method, url, fields) => inject({ method, url, ...multipartBody(fields) }),
  };
}
