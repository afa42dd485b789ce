import { describe, expect, it } from 'vitest';
import { printablePath } from './printable.js';

describe('printablePath', () => {
  it('leaves ordinary names alone, accents, emoji and right-to-left letters included', () => {
    expect(printablePath('Music/Björk – Jóga (live) 🎵 שלום.flac')).toBe('Music/Björk – Jóga (live) 🎵 שלום.flac');
  });

  it('writes C0 controls, DEL and C1 controls as \\x escapes', () => {
    expect(printablePath('a\x1b]0;owned\x07b.wav')).toBe('a\\x1b]0;owned\\x07b.wav');
    expect(printablePath('\x1b[2J\x1b[H')).toBe('\\x1b[2J\\x1b[H');
    expect(printablePath('tab\there\nnew\rline\x00')).toBe('tab\\x09here\\x0anew\\x0dline\\x00');
    expect(printablePath('del\x7f c1\x9b c1\x80\x85')).toBe('del\\x7f c1\\x9b c1\\x80\\x85');
  });

  it('writes the bidi embeddings, overrides and isolates as \\u escapes', () => {
    expect(printablePath('evil\u202egnp.wav')).toBe('evil\\u202egnp.wav');
    expect(printablePath('\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069')).toBe(
      '\\u202a\\u202b\\u202c\\u202d\\u2066\\u2067\\u2068\\u2069',
    );
    // Neighbours of the ranges are ordinary characters.
    expect(printablePath('\u2029\u202f\u2065\u206a\xa0')).toBe('\u2029\u202f\u2065\u206a\xa0');
  });

  it('writes the non-characters U+FFFE and U+FFFF as \\u escapes, and keeps their neighbour U+FFFD', () => {
    expect(printablePath('a\ufffeb\uffffc\ufffd')).toBe('a\\ufffeb\\uffffc\ufffd');
  });

  it('answers text with no control character left in it', () => {
    const all = Array.from({ length: 0x2070 }, (_, code) => String.fromCharCode(code)).join('');
    expect(printablePath(all)).not.toMatch(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/u);
  });
});
