import { UNKNOWN_ARTIST } from '@tonearm/contract';

const FILENAME_MAX = 180;

/** Characters no file system or header may get: controls, path separators and the Windows-reserved set. */
export function cleanFilename(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- stripping control characters is the point
      .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^\.+/, '')
  );
}

/** `<artist> - <name>.<ext>`, safe as a file name on any system; the extension comes from the stored key. */
export function downloadFilename(artistName: string | null, songName: string, audioKey: string): string {
  const dot = audioKey.lastIndexOf('.');
  const ext = dot >= 0 ? audioKey.slice(dot + 1).replace(/[^a-z0-9]/gi, '') : '';
  const stem = cleanFilename(
    `${cleanFilename(artistName ?? '') || UNKNOWN_ARTIST} - ${cleanFilename(songName) || 'Untitled'}`,
  );
  // Never cut between the two halves of a surrogate pair.
  const cut = stem
    .slice(0, FILENAME_MAX)
    .replace(/[\uD800-\uDBFF]$/, '')
    .trim();
  return ext === '' ? cut : `${cut}.${ext}`;
}

/**
 * Content-Disposition for an attachment (RFC 6266): an ASCII `filename` for old clients and the exact UTF-8 name in
 * `filename*` (RFC 8187).
 */
export function attachmentDisposition(filename: string): string {
  const ascii =
    filename
      .normalize('NFKD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/["\\%]/g, '') || 'download';
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
