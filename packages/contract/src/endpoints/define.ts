import type { z } from 'zod';
import type * as Contract from '../schemas.js';
import type { Access } from '../policy.js';

/**
 * The contract's zod schemas by their export name. Endpoint declarations name their schemas instead of holding them,
 * so a declaration is plain data: the web app reads method and path at run time without loading zod (which stays out
 * of its start-up bundle), while the types below still come from the schemas themselves.
 */
type Schemas = {
  [K in keyof typeof Contract as (typeof Contract)[K] extends z.ZodType ? K : never]: (typeof Contract)[K];
};
export type SchemaName = keyof Schemas;
export type SchemaOf<N extends SchemaName> = Schemas[N];

/**
 * What a success status answers:
 * - a schema name: JSON of that schema;
 * - `{ text }`: DESIGN §4's *text* answers, always this text (`text/plain`);
 * - `'empty'`: no body (204);
 * - `'binary'`: bytes (audio, images, downloads), written by the handler itself.
 */
export type ResponseSpec = SchemaName | { readonly text: string } | 'empty' | 'binary';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A file part of a multipart form. */
export interface FileFieldSpec {
  /** `text`: a small text file (lyrics), read into memory whole. */
  readonly kind: 'audio' | 'image' | 'text';
  /** Bytes past this answer 413. */
  readonly maxBytes: number;
}

export type FileKind = FileFieldSpec['kind'];

/** A multipart body: the text fields (validated by `fields`) and the file parts, by field name. */
export interface FormSpec {
  readonly fields: SchemaName;
  readonly files: Readonly<Record<string, FileFieldSpec>>;
  /** Also takes a JSON object with the same text fields (and no files). */
  readonly json?: boolean;
}

/** One endpoint: everything the server, the web client, the test mocks and OpenAPI need to know about it. */
export interface EndpointSpec {
  readonly method: HttpMethod;
  /** Fastify style: `/api/playlists/:id`. */
  readonly path: string;
  /** Who may call it (issue 7's one policy: `accessAllows`, and the owner rule in the service). */
  readonly access: Access;
  readonly summary?: string;
  readonly description?: string;
  readonly params?: SchemaName;
  readonly query?: SchemaName;
  /** A JSON body. */
  readonly body?: SchemaName;
  /** The JSON body may be left out: the server then also takes null or nothing (the schema made nullish). */
  readonly bodyOptional?: boolean;
  /** A multipart body. */
  readonly form?: FormSpec;
  /** Success answers by status; errors are always the `{ error }` body of DESIGN §4. */
  readonly responses: Readonly<Partial<Record<200 | 201 | 204 | 206 | 304, ResponseSpec>>>;
}

/** Declares one endpoint; the literal types are kept, so every user of it is typed from this declaration. */
export function endpoint<const E extends EndpointSpec>(spec: E): E {
  return spec;
}

type Output<N> = N extends SchemaName ? z.output<SchemaOf<N>> : never;
type Input<N> = N extends SchemaName ? z.input<SchemaOf<N>> : never;

/** The path parameters of an endpoint, as the server sees them after validation. */
export type ParamsOf<E extends EndpointSpec> = E['params'] extends SchemaName ? Output<E['params']> : object;
export type QueryOf<E extends EndpointSpec> = E['query'] extends SchemaName ? Output<E['query']> : object;
/** The JSON body: what a client sends (input) and what the handler gets (output). */
export type BodyInputOf<E extends EndpointSpec> = E['body'] extends SchemaName
  ? E['bodyOptional'] extends true
    ? Input<E['body']> | undefined
    : Input<E['body']>
  : undefined;
export type BodyOf<E extends EndpointSpec> = E['body'] extends SchemaName
  ? E['bodyOptional'] extends true
    ? Output<E['body']> | null | undefined
    : Output<E['body']>
  : undefined;
/** The multipart text fields a client sends. */
export type FormFieldsOf<E extends EndpointSpec> = E['form'] extends FormSpec ? Input<E['form']['fields']> : never;
export type FileNamesOf<E extends EndpointSpec> = E['form'] extends FormSpec
  ? keyof E['form']['files'] & string
  : never;

/** An endpoint whose body is a multipart form. */
export type FormEndpoint = EndpointSpec & { readonly form: FormSpec };

/** The name of a form's file field of one kind. */
export type FileFieldOf<E extends FormEndpoint, K extends FileKind> = {
  [F in keyof E['form']['files']]: E['form']['files'][F]['kind'] extends K ? F : never;
}[keyof E['form']['files']] &
  string;

/**
 * The name of an endpoint's one file field of `kind`: `fileField(endpoints.songs.create, 'audio')` is `'songFile'`.
 * Code that names a file field outside the form itself (the `field` of an error) takes it from here.
 */
export function fileField<E extends FormEndpoint, K extends FileKind>(spec: E, kind: K): FileFieldOf<E, K> {
  const names = Object.keys(spec.form.files).filter((name) => spec.form.files[name]?.kind === kind);
  if (names.length !== 1) throw new Error(`${spec.method} ${spec.path}: ${names.length} file fields of kind ${kind}`);
  return names[0] as FileFieldOf<E, K>;
}

type SuccessStatus<E extends EndpointSpec> = keyof E['responses'] & (200 | 201 | 204 | 206);
type SuccessSpec<E extends EndpointSpec> = E['responses'][SuccessStatus<E>];

/** What a successful call answers: the JSON value, the text, nothing, or the raw bytes (a Response on the web). */
export type SuccessOf<E extends EndpointSpec, Bytes = never> =
  SuccessSpec<E> extends infer R
    ? R extends SchemaName
      ? Output<R>
      : R extends { readonly text: string }
        ? string
        : R extends 'binary'
          ? Bytes
          : undefined
    : never;

/** The JSON answer of an endpoint whose success is JSON (never for text, empty and binary answers). */
export type JsonOf<E extends EndpointSpec> =
  SuccessSpec<E> extends infer R ? (R extends SchemaName ? Output<R> : never) : never;

/** The first success status an endpoint declares: the status its handler answers with. */
export function successStatus(spec: EndpointSpec): 200 | 201 | 204 | 206 {
  for (const status of [200, 201, 204, 206] as const) if (spec.responses[status] !== undefined) return status;
  return 200;
}

/** `/api/playlists/:id` with `{ id: 3 }` → `/api/playlists/3` (each value URL-encoded). */
export function fillPath(path: string, params: Readonly<Record<string, unknown>> | undefined): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name] as string | number | null | undefined;
    if (value === undefined || value === null) throw new Error(`${path}: missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

/** `/api/playlists/:id` → `/api/playlists/{id}` (OpenAPI). */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}
