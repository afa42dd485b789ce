import { describe, expect, it } from 'vitest';
import { DbIdText, dbIdText } from './common.js';
import { PlaylistFormFields } from './playlists.js';
import { plainText, textField } from './text.js';
import { Address } from './users.js';

describe('plainText', () => {
  it('removes C0 and C1 controls, DEL, U+FFFE, U+FFFF and the bidirectional overrides and isolates', () => {
    const unwanted = [
      ...Array.from({ length: 0x20 }, (_, code) => code).filter((code) => ![9, 10, 13].includes(code)),
      ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i),
      0xfffe,
      0xffff,
      0x202a,
      0x202b,
      0x202c,
      0x202d,
      0x202e,
      0x2066,
      0x2067,
      0x2068,
      0x2069,
    ];
    for (const code of unwanted) expect(plainText(`a${String.fromCharCode(code)}b`), code.toString(16)).toBe('ab');
  });

  it('keeps other text, including marks that shape scripts (ZWJ, RLM) and astral characters', () => {
    const text = 'Café 東京 👩\u200d🎤 \u200fעברית\u200e ÿ';
    expect(plainText(text)).toBe(text);
  });

  it('turns tab and line breaks into spaces on one line, and keeps tab and LF where text has lines', () => {
    expect(plainText('a\tb\nc\r\nd')).toBe('a b c  d');
    expect(plainText('a\tb\nc\r\nd\re', 'many')).toBe('a\tb\nc\r\nde');
  });

  it('is what the name fields check: "\\u001b[2J" is not a name, and a cleaned name is trimmed after', () => {
    expect(textField().trim().min(1).safeParse('\u001b\u202e').success).toBe(false);
    expect(PlaylistFormFields.parse({ name: ' \u001b]0;x\u0007Mix\u202e ' }).name).toBe(']0;xMix');
    expect(Address.parse('1 Main St\n\u001b[31mTown')).toBe('1 Main St\n[31mTown');
  });
});

describe('ids as text', () => {
  it('accepts only canonical decimal ids', () => {
    expect(DbIdText.parse('1')).toBe(1);
    expect(DbIdText.parse('2147483647')).toBe(2147483647);
    expect(DbIdText.parse(12)).toBe(12);
    for (const text of [' 1', '1 ', '0001', '0x10', '1e3', '+1', '1.0', '', '0', '-1', '2147483648']) {
      expect(DbIdText.safeParse(text).success, JSON.stringify(text)).toBe(false);
    }
  });

  it("answers the field's own message for any other text", () => {
    const result = dbIdText('Choose an artist').safeParse('0x10');
    expect(result.error?.issues[0]?.message).toBe('Choose an artist');
  });
});
