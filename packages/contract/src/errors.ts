import { z } from 'zod';

/** DESIGN §4: every error answer is `{"error":{"code","message"}}` with a real HTTP status. */
export const ErrorCodes = {
  validation: 'validation-error',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  notFound: 'not-found',
  conflict: 'conflict',
  payloadTooLarge: 'payload-too-large',
  unsupportedMediaType: 'unsupported-media-type',
  rangeNotSatisfiable: 'range-not-satisfiable',
  requestTimeout: 'request-timeout',
  /** A 4xx that none of the codes above names (e.g. 405, 414, 431). */
  badRequest: 'bad-request',
  rateLimited: 'rate-limited',
  badOrigin: 'bad-origin',
  paymentDeclined: 'payment-declined',
  paymentsUnavailable: 'payments-unavailable',
  /** A per-user count limit (playlists, unfinished checkouts): 409 until the user removes one. */
  limitReached: 'limit-reached',
  /** A per-user allowance over a rolling window (image uploads a day): 429 until older uploads leave the window. */
  quotaExceeded: 'quota-exceeded',
  /** Too much image work queued on the server right now: 429, try again in a moment. */
  serverBusy: 'server-busy',
  registrationClosed: 'registration-closed',
  invalidSetupCode: 'invalid-setup-code',
  internal: 'internal-error',
} as const;
export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

export const ErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    /** For validation errors: the offending field, dotted path (e.g. `username`). */
    field: z.string().optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
