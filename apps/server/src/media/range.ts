/** What a `Range` header asks of a representation of `size` bytes. */
export type RangeRequest =
  | { readonly kind: 'full' }
  | { readonly kind: 'partial'; readonly start: number; readonly end: number }
  | { readonly kind: 'unsatisfiable' };

const FULL: RangeRequest = { kind: 'full' };
const UNSATISFIABLE: RangeRequest = { kind: 'unsatisfiable' };

const SINGLE_BYTE_RANGE = /^bytes=[ \t]*(\d*)-(\d*)[ \t]*$/i;

/**
 * Reads a `Range` header (RFC 9110 §14.1.2) for a representation of `size` bytes. Supports one range: `bytes=0-499`,
 * open `bytes=500-`, suffix `bytes=-500`; the end is clamped to `size - 1` and a suffix longer than the file means the
 * whole file. Answers `full` (send 200) when there is no header, when it is malformed (another unit, `bytes=5-2`,
 * `bytes=-`, junk) and when it asks for several ranges: RFC 9110 lets a server ignore Range, and media players only
 * ever ask for one range, so multipart/byteranges is not worth its cost. Answers `unsatisfiable` (send 416) when the
 * range starts at or past the end, or is the empty suffix `bytes=-0`.
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return FULL;
  const match = SINGLE_BYTE_RANGE.exec(header);
  if (!match) return FULL;
  const first = match[1] ?? '';
  const last = match[2] ?? '';
  if (first === '') return last === '' ? FULL : suffixRange(Number(last), size);

  const start = Number(first);
  const end = last === '' ? Infinity : Number(last);
  if (end < start) return FULL;
  if (start >= size) return UNSATISFIABLE;
  return { kind: 'partial', start, end: Math.min(end, size - 1) };
}

function suffixRange(length: number, size: number): RangeRequest {
  if (length === 0) return UNSATISFIABLE;
  // An empty file has no byte to point a 206 at; its (empty) whole is the honest answer.
  if (size === 0) return FULL;
  return { kind: 'partial', start: Math.max(0, size - length), end: size - 1 };
}

/** The `Content-Range` value of a 206. */
export function contentRange(start: number, end: number, size: number): string {
  return `bytes ${start}-${end}/${size}`;
}

/** The `Content-Range` value of a 416. */
export function unsatisfiedContentRange(size: number): string {
  return `bytes */${size}`;
}
