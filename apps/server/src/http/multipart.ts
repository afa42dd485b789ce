import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from './app-types.js';
import { HttpError, badRequest, payloadTooLarge, unsupportedMediaType } from './errors.js';
import { assertNoNul } from './nul-guard.js';

/**
 * Multipart forms read as a stream: each file part goes straight to its handler (e.g. media's stageImage, which streams
 * it to a staged blob with a size guard), so an upload is never held in memory. Text fields are collected as strings.
 */
export interface MultipartSpec<T> {
  /** The accepted file fields and how each is consumed. Any other file field is a 400. */
  files: Readonly<Record<string, (file: Readable) => Promise<T>>>;
  /** Undoes a consumed file when the form as a whole fails (e.g. discards staged blobs). Must not throw. */
  discard: (consumed: T[]) => Promise<void>;
  /**
   * The largest file the handlers accept. The parser's own cut-off sits one byte above, so the handler's guard (with
   * its specific message) trips first.
   */
  maxFileBytes: number;
  /** Per text field; default 256 KiB (a long JSON array of song ids fits). */
  maxFieldBytes?: number;
  /** Default 20. */
  maxFields?: number;
}

export interface MultipartForm<T> {
  fields: Record<string, string>;
  files: Record<string, T>;
}

export const MultipartMessages = {
  notMultipart: 'Send this form as multipart/form-data',
  malformed: 'The form data could not be read',
  tooManyParts: 'The form has too many fields or files',
  fieldTooLong: (field: string) => `${field} is too long`,
  unexpectedFile: (field: string) => `Unexpected file field ${field}`,
  duplicateFile: (field: string) => `Send only one file as ${field}`,
} as const;

const DEFAULT_FIELD_BYTES = 256 * 1024;
const DEFAULT_FIELDS = 20;

/** Unread upload bytes that are read and discarded after an early answer, so the connection stays usable. */
export const DRAIN_MAX_BYTES = 4 * 1024 * 1024;
/** How long the client gets to read an early answer when the rest of its upload is too large to drain. */
export const LINGER_MS = 2000;

/**
 * After an answer sent while the client is still uploading, beyond DRAIN_MAX_BYTES: stop taking the upload but let the
 * client read the answer. Closing at once would reset the connection under a client still sending (TCP answers the
 * unread bytes with a reset, and the client drops the answer with it: EPIPE/ECONNRESET instead of 401/413). So close
 * our side for writing, keep discarding what still arrives for a moment, then free the connection.
 */
function lingeringClose(socket: Socket): void {
  socket.end();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/**
 * Lets the rest of an upload whose answer is out be read and discarded: up to DRAIN_MAX_BYTES the connection is kept
 * for the next request; past it, lingeringClose. A body nobody began to read is already discarded by Node (its
 * `_dump`), one that busboy began is unpiped and resumed here; either way the socket's byte count measures the drain.
 */
function discardRest(request: IncomingMessage): void {
  const socket = request.socket;
  if (request.complete || request.readableEnded || socket.destroyed) return;
  request.unpipe();
  request.resume();
  const start = socket.bytesRead;
  const watch = setInterval(() => {
    if (request.complete || request.readableEnded || socket.destroyed) clearInterval(watch);
    else if (socket.bytesRead - start > DRAIN_MAX_BYTES) {
      clearInterval(watch);
      lingeringClose(socket);
    }
  }, 20);
  watch.unref();
  // The body's end stops the watch too (an injected request's socket is never destroyed).
  const stop = () => clearInterval(watch);
  request.once('end', stop);
  request.once('close', stop);
}

/**
 * An `onSend` hook for upload routes. A refused upload (401/403 before reading, 413 at the size limit, 415 on the
 * first file, 400) is answered before the client finished sending its body. The answer goes out first; then the unread
 * rest is drained (the connection stays usable) or, when too much remains, the connection is closed gently enough that
 * the client still reads the answer (see lingeringClose).
 */
export function drainBodyAfterAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
): void {
  if (!request.raw.complete) reply.raw.once('finish', () => discardRest(request.raw));
  done(null, payload);
}

/**
 * Registers a module's upload `routes` in an encapsulated scope of their own, which parses multipart and deals with
 * the unread body of any answer sent before the body was read (drainBodyAfterAnswer). One scope per module, so several
 * modules each have the parser without clashing decorators.
 */
export async function registerUploadScope(app: App, routes: (scope: App) => void): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart, { throwFileSizeLimit: true });
    scope.addHook('onSend', drainBodyAfterAnswer);
    routes(scope);
  });
}

/** Maps the parser's own failures (limits, broken bodies) to our error answers; anything else passes through. */
function toHttpError(error: unknown): unknown {
  if (error instanceof HttpError || typeof error !== 'object' || error === null) return error;
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return unsupportedMediaType(MultipartMessages.notMultipart);
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return payloadTooLarge(MultipartMessages.tooManyParts);
    case 'FST_PROTO_VIOLATION':
      return badRequest(MultipartMessages.malformed);
    default: {
      // Busboy reports a truncated or garbled body as a plain Error ("Unexpected end of form", "Malformed part ...").
      const message = error instanceof Error ? error.message : '';
      if (code === 'FST_MP_PREMATURE_CLOSE' || /form|part|boundary|multipart/i.test(message)) {
        return badRequest(MultipartMessages.malformed);
      }
      return error;
    }
  }
}

/**
 * Reads a multipart request. On any failure every file already consumed is discarded before the error propagates,
 * so a bad form leaves nothing behind.
 */
export async function readMultipart<T>(request: FastifyRequest, spec: MultipartSpec<T>): Promise<MultipartForm<T>> {
  if (!request.isMultipart()) throw unsupportedMediaType(MultipartMessages.notMultipart);
  const fields: Record<string, string> = {};
  const files: Record<string, T> = {};
  const maxFieldBytes = spec.maxFieldBytes ?? DEFAULT_FIELD_BYTES;
  const fileFields = Object.keys(spec.files);
  try {
    const parts = request.parts({
      limits: {
        fileSize: spec.maxFileBytes + 1,
        // One spare, so an unexpected or repeated file gets its specific 400 rather than a generic limit error.
        files: fileFields.length + 1,
        fields: spec.maxFields ?? DEFAULT_FIELDS,
        fieldSize: maxFieldBytes,
        parts: fileFields.length + 1 + (spec.maxFields ?? DEFAULT_FIELDS),
      },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.valueTruncated) throw payloadTooLarge(MultipartMessages.fieldTooLong(part.fieldname), part.fieldname);
        const value = typeof part.value === 'string' ? part.value : String(part.value);
        assertNoNul({ [part.fieldname]: value });
        fields[part.fieldname] = value;
        continue;
      }
      const handler = Object.hasOwn(spec.files, part.fieldname) ? spec.files[part.fieldname] : undefined;
      if (part.filename === '' && handler !== undefined) {
        // An empty <input type="file"> is sent as a nameless, empty part: it means "no file".
        part.file.resume();
        continue;
      }
      if (handler === undefined) {
        part.file.resume();
        throw badRequest(MultipartMessages.unexpectedFile(part.fieldname), part.fieldname);
      }
      if (Object.hasOwn(files, part.fieldname)) {
        part.file.resume();
        throw badRequest(MultipartMessages.duplicateFile(part.fieldname), part.fieldname);
      }
      files[part.fieldname] = await handler(part.file);
    }
  } catch (error) {
    await spec.discard(Object.values(files));
    throw toHttpError(error);
  }
  return { fields, files };
}
