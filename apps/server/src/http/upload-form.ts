import type { Readable } from 'node:stream';
import type { FileKind, FormEndpoint } from '@tonearm/contract';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { badRequest } from './errors.js';
import { readMultipart, type MultipartSpec } from './multipart.js';

/** Consumes one uploaded file as it streams in (e.g. media's stageImage: size limit, magic bytes, hashing). */
export type FileStager<T> = (stream: Readable) => Promise<T>;

type StagedOf<S> = { [K in keyof S]?: S[K] extends FileStager<infer T> ? T : never };

export interface UploadForm<S> {
  fields: Record<string, string>;
  /** What each stager made of its file; absent when the form carried none. */
  files: StagedOf<S>;
}

/** A multipart spec whose `files` keep their own keys, so each staged file comes back with its stager's type. */
export interface UploadFormSpec<T, S extends Record<string, FileStager<T>>> extends Omit<MultipartSpec<T>, 'files'> {
  files: S;
}

/** Stages one file of a kind (audio, image): its stream, its field's name (for errors) and its declared byte limit. */
export type KindStager<T> = (stream: Readable, field: string, maxBytes: number) => Promise<T>;
export type KindStagers = Partial<Record<FileKind, KindStager<unknown>>>;

type StagedKind<S extends KindStagers, K> = K extends keyof S ? (S[K] extends KindStager<infer T> ? T : never) : never;
type FilesOf<E extends FormEndpoint> = E['form']['files'];

/** One stager per file field the endpoint declares, each making what its kind's stager makes. */
export type DeclaredStagers<E extends FormEndpoint, S extends KindStagers> = {
  [F in keyof FilesOf<E> & string]: FileStager<StagedKind<S, FilesOf<E>[F]['kind']>>;
};

/**
 * The upload spec of a declared form: its file fields (any other is a 400), each staged by the stager of its kind
 * with the field's name and declared byte limit; the parser's cut-off follows the largest of those limits.
 */
export function declaredUpload<E extends FormEndpoint, S extends KindStagers>(
  endpoint: E,
  stagers: S,
  discard: (consumed: StagedKind<S, FileKind>[]) => Promise<void>,
): UploadFormSpec<StagedKind<S, FileKind>, DeclaredStagers<E, S>> {
  const declared = Object.entries(endpoint.form.files);
  const files = Object.fromEntries(
    declared.map(([field, { kind, maxBytes }]) => {
      const stage = stagers[kind];
      if (stage === undefined) throw new Error(`${endpoint.method} ${endpoint.path}: no stager for ${kind} files`);
      return [field, (stream: Readable) => stage(stream, field, maxBytes)];
    }),
  );
  const maxFileBytes = Math.max(...declared.map(([, file]) => file.maxBytes));
  // Each field got the stager of its declared kind.
  return { files: files as DeclaredStagers<E, S>, discard, maxFileBytes };
}

/**
 * Reads an upload form as it streams in (http/multipart): each file goes to its stager as it arrives, and on any
 * failure every file staged so far is discarded (`discard`). `maxFileBytes` is the largest limit among the stagers;
 * theirs trip first with their own messages.
 */
export async function readUploadForm<T, S extends Record<string, FileStager<T>>>(
  request: FastifyRequest,
  spec: UploadFormSpec<T, S>,
): Promise<UploadForm<S>> {
  const form = await readMultipart<T>(request, spec);
  // Each file under a key was produced by that key's stager.
  return { fields: form.fields, files: form.files as StagedOf<S> };
}

/**
 * Parses a form's text fields with a contract schema: the first problem becomes a 400 naming its field, and a missing
 * field reads "<field> is required". `defaults` stand in for absent fields (e.g. '' so the schema's own "is required"
 * message applies).
 */
export function parseFormFields<T extends z.ZodType>(
  schema: T,
  fields: Readonly<Record<string, unknown>>,
  defaults: Readonly<Record<string, string>> = {},
): z.infer<T> {
  const parsed = schema.safeParse({ ...defaults, ...fields });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const dotted = issue?.path.map(String).join('.');
  const field = dotted === '' ? undefined : dotted;
  const missing = issue?.code === 'invalid_type' && issue.message.endsWith('received undefined');
  throw badRequest(missing ? `${field ?? 'value'} is required` : (issue?.message ?? 'Invalid form'), field);
}

/** parseFormFields for a form whose files are already staged: a bad field discards them before its 400 goes out. */
export async function parseUploadFields<T extends z.ZodType>(
  schema: T,
  fields: Readonly<Record<string, unknown>>,
  discardFiles: () => Promise<void>,
  defaults: Readonly<Record<string, string>> = {},
): Promise<z.infer<T>> {
  try {
    return parseFormFields(schema, fields, defaults);
  } catch (error) {
    await discardFiles();
    throw error;
  }
}
