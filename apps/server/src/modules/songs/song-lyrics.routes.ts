import type { Readable } from 'node:stream';
import { endpoints, LyricsFormFields, LyricsMessages, fileField } from '@tonearm/contract';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { badRequest, payloadTooLarge, unsupportedMediaType } from '../../http/errors.js';
import { MultipartMessages } from '../../http/multipart.js';
import { requireViewer } from '../../http/session.js';
import { declaredUpload, parseFormFields, readUploadForm } from '../../http/upload-form.js';
import { toSongLyricsJson } from './song-lyrics.presenter.js';
import type { LyricsInput, SongLyricsService } from './song-lyrics.service.js';

const TEXT_FIELD = 'text' satisfies keyof LyricsFormFields;
const FILE_FIELD = fileField(endpoints.lyrics.put, 'text');

/** A small text file read whole into memory: 413 as soon as it passes `maxBytes`. */
async function readWhole(stream: Readable, field: string, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      stream.resume();
      throw payloadTooLarge(LyricsMessages.tooLarge, field);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const lyricsForm = declaredUpload(endpoints.lyrics.put, { text: readWhole }, () => Promise.resolve());

/** What PUT carries: the file when one was sent, else the pasted text (multipart or JSON); 400 for neither. */
async function lyricsInput(request: FastifyRequest): Promise<LyricsInput> {
  let fields: Readonly<Record<string, unknown>>;
  if (request.isMultipart()) {
    const form = await readUploadForm(request, lyricsForm);
    const file = form.files.lyricsFile;
    if (file !== undefined) return { bytes: file, field: FILE_FIELD };
    fields = form.fields;
  } else {
    if (request.headers['content-type']?.startsWith('application/json') !== true) {
      throw unsupportedMediaType(MultipartMessages.notMultipart);
    }
    const body: unknown = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest(LyricsMessages.textOrFile);
    fields = body as Record<string, unknown>;
  }
  const { text } = parseFormFields(LyricsFormFields, fields);
  if (text === undefined || text.trim() === '') throw badRequest(LyricsMessages.textOrFile, TEXT_FIELD);
  return { text, field: TEXT_FIELD };
}

/** GET /api/songs/:id/lyrics: whoever sees the song. */
export function songLyricsReadRoutes(app: App, lyrics: SongLyricsService): void {
  route(app, endpoints.lyrics.get, async (request) =>
    toSongLyricsJson(await lyrics.get(await requireViewer(request), request.params.id)),
  );
}

/** PUT and DELETE /api/songs/:id/lyrics (administrators): registered in an upload scope, which parses multipart. */
export function songLyricsWriteRoutes(scope: App, lyrics: SongLyricsService): void {
  route(scope, endpoints.lyrics.put, async (request) =>
    toSongLyricsJson(await lyrics.save(request.params.id, await lyricsInput(request))),
  );
  route(scope, endpoints.lyrics.remove, async (request) => {
    await lyrics.remove(request.params.id);
  });
}
