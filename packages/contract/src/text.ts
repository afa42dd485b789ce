import { z } from 'zod';

/** The ranges both lists below share: the controls after the line breaks, DEL and C1, the non-characters, bidi controls. */
const BEYOND_LINE_BREAKS = '\\u000E-\\u001F\\u007F-\\u009F\\uFFFE\\uFFFF\\u202A-\\u202E\\u2066-\\u2069';

/**
 * Characters no name or tag text keeps: C0 controls but tab, line feed and carriage return (handled apart), DEL and the
 * C1 controls (escape sequences that move a terminal's cursor, set its title or clear it), U+FFFE and U+FFFF (not
 * characters: an XML parser such as libvips' SVG reader refuses them), and the bidirectional overrides and isolates
 * U+202A–U+202E and U+2066–U+2069 (they make "evil‮3pm.exe" read as "evilexe.mp3").
 */
const NEVER_KEPT = new RegExp(`[\\u0000-\\u0008\\u000B\\u000C${BEYOND_LINE_BREAKS}]`, 'g');

/**
 * What a terminal must not be sent raw: the characters plainText removes, and tab, line feed and carriage return too
 * (a file name that holds them would break the line it is printed on). The import escapes these when it prints.
 */
export const UNPRINTABLE = new RegExp(`[\\u0000-\\u000D${BEYOND_LINE_BREAKS}]`, 'g');

/**
 * Text as a name or a tag may hold it: the characters above removed. A one-line text (a name) turns tab, line feed
 * and carriage return into spaces; a multi-line one (an address) keeps tab and line feed, and a CR only before a LF.
 */
export function plainText(text: string, lines: 'one' | 'many' = 'one'): string {
  const kept = text.replace(NEVER_KEPT, '');
  return lines === 'one' ? kept.replace(/[\t\n\r]/g, ' ') : kept.replace(/\r(?!\n)/g, '');
}

/**
 * A string schema that removes what plainText removes before any other check (so `.trim().min(1)` sees the text a
 * user will see). Every name a route or the import takes starts from this.
 */
export function textField(lines: 'one' | 'many' = 'one') {
  return z.string().overwrite((text) => plainText(text, lines));
}
