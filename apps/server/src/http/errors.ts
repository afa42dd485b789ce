import { ErrorCodes, type ErrorCode } from '@tonearm/contract';

/** An error with an HTTP status that the error handler answers as `{"error":{"code","message","field?"}}`. */
export class HttpError extends Error {
  /** Sent as Retry-After with a 429 or 503 when set. */
  retryAfterSeconds: number | undefined;

  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, field?: string) =>
  new HttpError(400, ErrorCodes.validation, message, field);
export const unauthorized = (message: string) => new HttpError(401, ErrorCodes.unauthorized, message);
export const forbidden = (message: string) => new HttpError(403, ErrorCodes.forbidden, message);
export const notFound = (message: string) => new HttpError(404, ErrorCodes.notFound, message);
export const conflict = (message: string, field?: string) => new HttpError(409, ErrorCodes.conflict, message, field);
export const payloadTooLarge = (message: string, field?: string) =>
  new HttpError(413, ErrorCodes.payloadTooLarge, message, field);
export const unsupportedMediaType = (message: string, field?: string) =>
  new HttpError(415, ErrorCodes.unsupportedMediaType, message, field);
export const tooManyRequests = (message: string) => new HttpError(429, ErrorCodes.rateLimited, message);
export const badOrigin = (message: string) => new HttpError(403, ErrorCodes.badOrigin, message);
