import { UNPRINTABLE } from '@tonearm/contract';

/**
 * Text from the disk (file names, and reasons that quote tags or paths) made safe to print on a terminal: what the
 * contract calls UNPRINTABLE (C0 and C1 controls, DEL, U+FFFE/U+FFFF, the bidi embeddings, overrides and isolates) is
 * written as visible escapes (`\x1b`, `\u202e`), so a file name cannot set the title, clear the screen or reorder the
 * line it is printed on.
 */
export function printablePath(text: string): string {
  return text.replace(UNPRINTABLE, (char) => escapeOf(char.charCodeAt(0)));
}

function escapeOf(code: number): string {
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}
