import { describe, expect, it } from 'vitest';
import { cleanText, repairMojibake } from './tag-text.js';

describe('tag text', () => {
  it('re-reads UTF-8 that was taken for Latin-1, and leaves real Latin-1 text alone', () => {
    expect(repairMojibake('TÃ«st')).toBe('Tëst');
    expect(repairMojibake(Buffer.from('Café 🎵 夜').toString('latin1'))).toBe('Café 🎵 夜');
    expect(repairMojibake('Café')).toBe('Café');
    expect(repairMojibake('Señor Müller')).toBe('Señor Müller');
    expect(repairMojibake('夜に駆ける')).toBe('夜に駆ける');
    expect(repairMojibake('plain')).toBe('plain');
  });

  it('trims, drops control characters, caps the length by characters, and reads blank as missing', () => {
    expect(cleanText('  Title\u0000 ')).toBe('Title');
    expect(cleanText('   ')).toBeNull();
    expect(cleanText(undefined)).toBeNull();
    expect(cleanText('🎵'.repeat(300))).toBe('🎵'.repeat(100));
    expect(cleanText(`x${'🎵'.repeat(300)}`)).toBe(`x${'🎵'.repeat(99)}`);
  });
});
