/**
 * Text from the disk (file names, and reasons that quote tags or paths) made safe to print on a terminal: C0 and C1
 * control characters, DEL, and the bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) are
 * written as visible escapes (`\x1b`, `\u202e`), so a file name cannot set the title, clear the screen or reorder the
 * line it is printed on.
 */
export function printablePath(text: string): string {
  let printable = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    printable += isUnprintable(code) ? escapeOf(code) : char;
  }
  return printable;
}

function isUnprintable(code: number): boolean {
  return (
    code <= 0x1f ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

function escapeOf(code: number): string {
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}
