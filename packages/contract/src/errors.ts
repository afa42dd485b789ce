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
  rateLimited: 'rate-limited',
  badOrigin: 'bad-origin',
  paymentDeclined: 'payment-declined',
  paymentsUnavailable: 'payments-unavailable',
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
