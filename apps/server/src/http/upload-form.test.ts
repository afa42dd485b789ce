import { Readable } from 'node:stream';
import { AUDIO_MAX_BYTES, endpoints, IMAGE_MAX_BYTES } from '@tonearm/contract';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { declaredUpload } from './upload-form.js';

const stagers = {
  audio: (_stream: Readable, field: string, maxBytes: number) => Promise.resolve({ audio: field, maxBytes }),
  image: (_stream: Readable, field: string, maxBytes: number) => Promise.resolve({ image: field, maxBytes }),
};
const discard = () => Promise.resolve();

describe('declaredUpload', () => {
  it('stages each declared file field by its kind, with its name and declared limit', async () => {
    const upload = declaredUpload(endpoints.songs.create, stagers, discard);
    expect(Object.keys(upload.files).sort()).toEqual(['imageFile', 'songFile']);
    expect(upload.maxFileBytes).toBe(Math.max(AUDIO_MAX_BYTES, IMAGE_MAX_BYTES));
    const stream = Readable.from([]);
    expect(await upload.files.songFile(stream)).toEqual({ audio: 'songFile', maxBytes: AUDIO_MAX_BYTES });
    expect(await upload.files.imageFile(stream)).toEqual({ image: 'imageFile', maxBytes: IMAGE_MAX_BYTES });
    expectTypeOf(upload.files.songFile).returns.resolves.toEqualTypeOf<{ audio: string; maxBytes: number }>();
  });

  it('takes its parser cut-off from the only file of an image form', () => {
    const upload = declaredUpload(endpoints.users.updatePhoto, stagers, discard);
    expect(Object.keys(upload.files)).toEqual(['image']);
    expect(upload.maxFileBytes).toBe(IMAGE_MAX_BYTES);
  });

  it('refuses a form with a kind nobody stages', () => {
    expect(() => declaredUpload(endpoints.songs.create, { image: stagers.image }, discard)).toThrow(
      'POST /api/songs: no stager for audio files',
    );
  });
});
