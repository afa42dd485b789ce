import type { ErrorCode } from '@tonearm/contract';

/** An answer the /media handler gives as the app's JSON error (status, code, message, and the field at fault). */
export class MediaError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
    /** Extra response headers, e.g. Retry-After on a 503. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}
