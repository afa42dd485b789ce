/** A byte range of a file, both ends inclusive, as HTTP counts them. */
export interface ByteRange {
  start: number;
  end: number;
}

export type RangeOutcome = ByteRange | 'unsatisfiable' | null;

const SINGLE_RANGE = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/;

/**
 * Reads a Range header against a file of `size` bytes (RFC 9110 §14). null means "send the whole file": no header,
 * another unit, or a malformed range (which a server ignores). Only the first of several ranges is honoured, which
 * the RFC allows and media elements never need more than.
 */
export function parseRange(header: string | null, size: number): RangeOutcome {
  if (header === null) return null;
  const match = SINGLE_RANGE.exec((header.split(',')[0] ?? '').trim());
  if (!match) return null;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return null;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  if (to !== '' && Number(to) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: to === '' ? size - 1 : Math.min(Number(to), size - 1) };
}

/**
 * Answers a request from a stored full body the way a file server would: 206 with Content-Range for a range, 416 for
 * one past the end, 200 otherwise. <audio> asks for ranges and will not play from a cache that ignores them.
 */
export async function rangeResponse(stored: Response, rangeHeader: string | null): Promise<Response> {
  const body = await stored.blob();
  const size = body.size;
  const type = stored.headers.get('content-type') ?? body.type;
  const range = parseRange(rangeHeader, size);
  if (range === 'unsatisfiable') {
    return new Response(null, { status: 416, headers: { 'Content-Range': `bytes */${size}` } });
  }
  const common = { 'Content-Type': type, 'Accept-Ranges': 'bytes' };
  if (range === null) {
    return new Response(body, { status: 200, headers: { ...common, 'Content-Length': String(size) } });
  }
  const part = body.slice(range.start, range.end + 1, type);
  return new Response(part, {
    status: 206,
    statusText: 'Partial Content',
    headers: {
      ...common,
      'Content-Length': String(part.size),
      'Content-Range': `bytes ${range.start}-${range.end}/${size}`,
    },
  });
}
