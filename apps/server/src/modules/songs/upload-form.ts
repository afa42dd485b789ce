import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { badRequest } from '../../http/errors.js';
import { readMultipart } from '../../http/multipart.js';
import { discardAll, type StagedMedia } from '../media/media.service.js';

/** Stages one uploaded file (size limit, magic bytes, hashing) and answers the staged media. */
export type FileStager = (stream: Readable) => Promise<StagedMedia>;

type StagedOf<S extends Record<string, FileStager>> = { [K in keyof S]?: Awaited<ReturnType<S[K]>> };

export interface UploadForm<S extends Record<string, FileStager>> {
  fields: Record<string, string>;
  files: StagedOf<S>;
}

/**
 * Reads a catalogue upload form as it streams in (http/multipart): each file goes to its stager as it arrives, and on
 * any failure every file staged so far is discarded. `maxFileBytes` is the largest limit among the stagers; theirs
 * trip first with their own messages.
 */
export async function readUploadForm<S extends Record<string, FileStager>>(
  request: FastifyRequest,
  stagers: S,
  maxFileBytes: number,
): Promise<UploadForm<S>> {
  const form = await readMultipart<StagedMedia>(request, { files: stagers, discard: discardAll, maxFileBytes });
  // Each file under a key was produced by that key's stager.
  return { fields: form.fields, files: form.files as StagedOf<S> };
}

/**
 * Parses collected text fields with a contract schema: the first problem becomes a 400 naming its field. `defaults`
 * stand in for absent fields (e.g. '' so the schema's own "is required" message applies).
 */
export function parseFormFields<T extends z.ZodType>(
  schema: T,
  fields: Record<string, string>,
  defaults: Record<string, string> = {},
): z.infer<T> {
  const parsed = schema.safeParse({ ...defaults, ...fields });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.map(String).join('.');
  throw badRequest(issue?.message ?? 'Invalid form', field === '' ? undefined : field);
}
