import { describe, expect, expectTypeOf, it } from 'vitest';
import { endpoint, fileField } from './define.js';
import { endpoints } from './index.js';

describe('fileField', () => {
  it('names the one file field of a kind, typed as that field', () => {
    const audio = fileField(endpoints.songs.create, 'audio');
    expect(audio).toBe('songFile');
    expectTypeOf(audio).toEqualTypeOf<'songFile'>();
    expect(fileField(endpoints.songs.update, 'image')).toBe('imageFile');
    expect(fileField(endpoints.users.updatePhoto, 'image')).toBe('image');
  });

  it('refuses a form without exactly one field of the kind', () => {
    expect(() => fileField(endpoints.artists.create, 'audio')).toThrow(/0 file fields of kind audio/);
    const twoImages = endpoint({
      method: 'POST',
      path: '/two',
      access: 'admin',
      form: {
        fields: 'EmptyForm',
        files: { front: { kind: 'image', maxBytes: 1 }, back: { kind: 'image', maxBytes: 1 } },
      },
      responses: { 204: 'empty' },
    });
    expect(() => fileField(twoImages, 'image')).toThrow(/POST \/two: 2 file fields of kind image/);
  });
});
