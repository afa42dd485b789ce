import { describe, expect, it } from 'vitest';
import { folderId, idOfKind, parseFolderId, parseSubsonicId } from './subsonic-ids.js';

describe('Subsonic ids', () => {
  it('reads a plain number as a song and a prefixed one as its kind', () => {
    expect(parseSubsonicId('12')).toEqual({ kind: 'song', id: 12 });
    expect(parseSubsonicId('al-5')).toEqual({ kind: 'album', id: 5 });
    expect(idOfKind('3', 'artist')).toBe(3);
  });

  it('accepts only canonical decimal numbers: no leading zero, sign, space or exponent', () => {
    for (const id of ['0001', '01', 'al-007', '+1', ' 1', '1 ', '0x10', '1e3', '0', '2147483648', 'ar-']) {
      expect(parseSubsonicId(id), id).toBeNull();
    }
  });

  it('writes a library folder as fo-<library>[-<base64url path>] and reads it back', () => {
    expect(folderId(3, '')).toBe('fo-3');
    expect(parseFolderId('fo-3')).toEqual({ libraryId: 3, path: '' });
    for (const path of ['Alpha', 'Alpha/Album One', 'Zoë 🎵/Deep', 'a\\b', '...dots']) {
      const id = folderId(7, path);
      expect(id).toMatch(/^fo-7-[A-Za-z0-9_-]+$/);
      expect(parseFolderId(id), path).toEqual({ libraryId: 7, path });
    }
    expect(parseSubsonicId(folderId(7, 'Alpha'))).toBeNull();
  });

  it('refuses any folder id that is not one Tonearm writes', () => {
    const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
    const odd = [
      'fo-',
      'fo-0',
      'fo-01',
      'fo-2147483648',
      'fo-1-',
      `fo-1-${b64('Alpha')}=`,
      `fo-1-${b64('../x')}`,
      `fo-1-${b64('a/../b')}`,
      `fo-1-${b64('/Alpha')}`,
      `fo-1-${b64('Alpha/')}`,
      `fo-1-${b64('a//b')}`,
      `fo-1-${b64('.')}`,
      `fo-1-${b64('a\u0000b')}`,
      `fo-1-${Buffer.from([0xff, 0xfe]).toString('base64url')}`,
      // Not the canonical writing of its bytes: the last character's unused bits set.
      'fo-1-QWxwaGF',
      `fo-1-${b64('x'.repeat(5000))}`,
      'fo-1-a+b',
      'fo-x',
      'ar-1',
    ];
    for (const id of odd) expect(parseFolderId(id), id).toBeNull();
  });
});
