import {
  endpoints,
  fillPath,
  successStatus,
  type BodyInputOf,
  type EndpointSpec,
  type Endpoints,
  type FileNamesOf,
  type FormFieldsOf,
  type FormSpec,
  type ParamsOf,
  type QueryOf,
  type SchemaName,
  type SuccessOf,
} from '@tonearm/contract';
import { send, withQuery } from './api-client.js';

/** A multipart form by the contract's field names: text fields, and files by their declared file field names. */
export type FormValues<E extends EndpointSpec> = Partial<
  Record<NamedKeys<FormFieldsOf<E>>, string | number | boolean> & Record<FileNamesOf<E>, Blob>
>;

/** The declared keys of an object type (an empty form's index signature has none). */
type NamedKeys<T> = { [K in keyof T]-?: string extends K ? never : K }[keyof T];

type QueryArgs<E extends EndpointSpec> = E['query'] extends SchemaName ? { query?: Partial<QueryOf<E>> } : object;
type BodyArgs<E extends EndpointSpec> = E['body'] extends SchemaName
  ? E['bodyOptional'] extends true
    ? { body?: BodyInputOf<E> }
    : { body: BodyInputOf<E> }
  : object;
type FormArgs<E extends EndpointSpec> = E['form'] extends FormSpec ? { form: FormValues<E> } : object;

/** One call's arguments: the path parameters by name, then `query`, `body` (JSON) or `form` (multipart). */
export type CallArgs<E extends EndpointSpec> = ParamsOf<E> & QueryArgs<E> & BodyArgs<E> & FormArgs<E>;

export interface CallOptions {
  signal?: AbortSignal;
}

/** What a call resolves to: the JSON answer, the *text* answer, nothing (204), or the raw Response for bytes. */
export type CallResult<E extends EndpointSpec> = SuccessOf<E, Response>;

export type Call<E extends EndpointSpec> =
  object extends CallArgs<E>
    ? (args?: CallArgs<E>, options?: CallOptions) => Promise<CallResult<E>>
    : (args: CallArgs<E>, options?: CallOptions) => Promise<CallResult<E>>;

/** The whole API, typed from the contract: `api.playlists.get({ id })` resolves to a Playlist. */
export type Api = {
  [F in keyof Endpoints]: {
    [N in keyof Endpoints[F]]: Endpoints[F][N] extends infer E extends EndpointSpec ? Call<E> : never;
  };
};

type RawArgs = Record<string, unknown> & {
  query?: Record<string, string | number | boolean | undefined>;
  body?: object;
  form?: Record<string, string | number | boolean | Blob | undefined>;
};

function formData(values: NonNullable<RawArgs['form']>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    form.set(name, value instanceof Blob ? value : String(value));
  }
  return form;
}

function queryValues(query: NonNullable<RawArgs['query']>): Record<string, string | number | undefined> {
  return Object.fromEntries(
    Object.entries(query).map(([name, value]) => [name, typeof value === 'boolean' ? String(value) : value]),
  );
}

async function read(spec: EndpointSpec, response: Response): Promise<unknown> {
  const answer = spec.responses[successStatus(spec)];
  if (answer === 'binary') return response;
  if (answer === 'empty') return undefined;
  if (typeof answer === 'object') return response.text();
  return response.json();
}

/** Calls one declared endpoint; resolves only for 2xx answers (ApiError / NetworkError otherwise, see api-client). */
export async function call(spec: EndpointSpec, args: RawArgs = {}, options: CallOptions = {}): Promise<unknown> {
  const { query, body, form, ...params } = args;
  const path = fillPath(spec.path, params);
  const url = query === undefined ? path : withQuery(path, queryValues(query));
  const response = await send(url, spec.method, form === undefined ? body : formData(form), options.signal);
  return read(spec, response);
}

function clientOf(group: Record<string, EndpointSpec>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(group).map(([name, spec]) => [
      name,
      (args?: RawArgs, options?: CallOptions) => call(spec, args, options),
    ]),
  );
}

export const api = Object.fromEntries(
  Object.entries(endpoints).map(([feature, group]) => [feature, clientOf(group as Record<string, EndpointSpec>)]),
) as unknown as Api;

/** The URL of a declared endpoint, for what the browser fetches itself (audio elements, links). */
export function urlOf<E extends EndpointSpec>(spec: E, params: ParamsOf<E>): string {
  return fillPath(spec.path, params as Record<string, unknown>);
}
