/**
 * The upload pattern the catalogue routes use, end to end over a real socket with @fastify/multipart:
 * stage every file → (DB transaction) → commit all; on any failure discard all. Proves that a refused or oversized
 * file answers promptly with the right error and leaves no blob and no temp file behind.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUDIO_MAX_BYTES, ErrorCodes } from '@tonearm/contract';
import { LocalBlobStore } from '../../storage/local-blob-store.js';
import { useHttpErrors } from '../../../test/http-errors.js';
import { imageFile, toneWav } from '../../../test/media.js';
import { filesUnder } from '../../../test/stored.js';
import { AudioMessages, ImageMessages } from '../../media/media.formats.js';
import { commitAll, discardAll, stageAudio, stageImage, type StagedMedia } from '../../media/staging.js';
import { drainBodyAfterAnswer } from '../../http/multipart.js';

const TEST_AUDIO_LIMIT = 64 * 1024;

let root: string;
let store: LocalBlobStore;
let app: FastifyInstance;
let baseUrl: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'tonearm-upload-'));
  store = new LocalBlobStore(root);
  app = Fastify();
  useHttpErrors(app);
  // One byte over the largest limit, so the media module (not busboy) reports an oversized file, with its message.
  await app.register(fastifyMultipart, { limits: { fileSize: AUDIO_MAX_BYTES + 1 } });
  app.post('/upload', { onSend: drainBodyAfterAnswer }, async (request, reply) => {
    const staged: StagedMedia[] = [];
    try {
      const keys: Record<string, string> = {};
      for await (const part of request.parts()) {
        if (part.type !== 'file') continue;
        if (part.fieldname === 'songFile') {
          const audio = await stageAudio(store, part.file, part.fieldname, { maxBytes: TEST_AUDIO_LIMIT });
          staged.push(audio);
          keys.audio = audio.key;
        } else {
          const image = await stageImage(store, part.file, part.fieldname);
          staged.push(image);
          keys.image = image.originalKey;
        }
      }
      // The real route writes its rows here, in a transaction, and commits the blobs as the transaction's last step.
      await commitAll(staged);
      return await reply.code(201).send(keys);
    } catch (error) {
      await discardAll(staged);
      throw error;
    }
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app.close();
  await rm(root, { recursive: true, force: true });
});

beforeEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The files under `dir` of the store's root. */
const filesIn = (dir: string) => filesUnder(path.join(root, dir));

function form(files: Record<string, { bytes: Buffer; name: string; type: string }>): FormData {
  const body = new FormData();
  body.append('name', 'A song');
  for (const [field, file] of Object.entries(files)) {
    body.append(field, new Blob([file.bytes], { type: file.type }), file.name);
  }
  return body;
}

async function upload(body: FormData) {
  const response = await fetch(`${baseUrl}/upload`, { method: 'POST', body, signal: AbortSignal.timeout(10_000) });
  return {
    status: response.status,
    json: await response.json(),
    connection: response.headers.get('connection'),
  };
}

describe('multipart upload with staged media', () => {
  it('commits the audio and the image with thumbnails', async () => {
    const result = await upload(
      form({
        songFile: { bytes: toneWav(440, 1), name: 'song.wav', type: 'audio/wav' },
        imageFile: { bytes: await imageFile(40, 40, 'jpeg'), name: 'cover.jpg', type: 'image/jpeg' },
      }),
    );

    expect(result.status).toBe(201);
    expect(result.connection).not.toBe('close');
    expect(await filesIn('audio')).toEqual([(result.json as { audio: string }).audio]);
    expect(await filesIn('image')).toHaveLength(4);
    expect(await filesIn('tmp')).toEqual([]);
  });

  it('answers 413 for an oversized audio file and keeps nothing', async () => {
    const result = await upload(
      form({
        imageFile: { bytes: await imageFile(40, 40, 'png'), name: 'cover.png', type: 'image/png' },
        songFile: { bytes: Buffer.alloc(TEST_AUDIO_LIMIT * 8, 1), name: 'long.wav', type: 'audio/wav' },
      }),
    );

    expect(result).toEqual({
      status: 413,
      json: {
        error: {
          code: ErrorCodes.payloadTooLarge,
          message: AudioMessages.tooLarge(TEST_AUDIO_LIMIT),
          field: 'songFile',
        },
      },
      // The unread rest of the body is drained after the answer, so this keep-alive connection stays usable.
      connection: 'keep-alive',
    });
    expect(await filesIn('')).toEqual([]);

    const next = await upload(form({ songFile: { bytes: toneWav(440, 0.2), name: 'short.wav', type: 'audio/wav' } }));
    expect(next.status).toBe(201);
  });

  it('answers 415 for a PNG sent as song.mp3 with audio/mpeg, and discards the image staged before it', async () => {
    const png = await imageFile(40, 40, 'png');
    const result = await upload(
      form({
        imageFile: { bytes: png, name: 'cover.png', type: 'image/png' },
        songFile: { bytes: png, name: 'song.mp3', type: 'audio/mpeg' },
      }),
    );

    expect(result).toMatchObject({
      status: 415,
      json: { error: { code: ErrorCodes.unsupportedMediaType, message: AudioMessages.wrongType, field: 'songFile' } },
    });
    expect(await filesIn('')).toEqual([]);
  });

  it('answers 415 for a text file sent as an image', async () => {
    const result = await upload(
      form({ imageFile: { bytes: Buffer.from('<svg></svg>'), name: 'cover.jpg', type: 'image/jpeg' } }),
    );
    expect(result.status).toBe(415);
    expect(result.json).toMatchObject({ error: { message: ImageMessages.wrongType, field: 'imageFile' } });
    expect(await filesIn('')).toEqual([]);
  });
});
