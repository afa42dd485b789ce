import { NAME_MAX, plainText } from '@tonearm/contract';

/**
 * Text that was UTF-8 but read as Latin-1 ("CafÃ©" for "Café"): RIFF INFO chunks and some ID3v1 tags are written in
 * UTF-8 by ffmpeg and others while readers take them as Latin-1. Re-read only when every character is a byte and the
 * bytes are valid UTF-8 that decodes to something shorter; real Latin-1 text ("Café" as E9) is not valid UTF-8.
 */
export function repairMojibake(text: string): string {
  let high = false;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code > 0xff) return text;
    if (code >= 0x80) high = true;
  }
  if (!high) return text;
  const decoded = new TextDecoder('utf-8', { fatal: false }).decode(Buffer.from(text, 'latin1'));
  return decoded.includes('\uFFFD') || decoded.length >= text.length ? text : decoded;
}

/** At most `max` UTF-16 units (as the contract's limits count), never half a surrogate pair. */
function capped(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * A tag's text (or a file name standing in for a title): what the contract's name fields keep (plainText: no control
 * characters, U+FFFE/U+FFFF or bidirectional overrides), trimmed, at most NAME_MAX long; null when nothing is left.
 */
export function cleanText(value: string | undefined | null): string | null {
  if (value === undefined || value === null) return null;
  const text = plainText(repairMojibake(value)).trim();
  return text === '' ? null : capped(text, NAME_MAX);
}
