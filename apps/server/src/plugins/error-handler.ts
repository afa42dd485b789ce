import { ErrorCodes, RequestMessages, ServerMessages, type ErrorBody, type ErrorCode } from '@tonearm/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { App } from '../http/app-types.js';
import { foreignKeyViolation } from '../db/errors.js';
import { HttpError } from '../http/errors.js';

type ValidationIssue = NonNullable<FastifyError['validation']>[number];

/** Fastify's and its plugins' client errors with a message of our own; any other 4xx keeps its status (see below). */
const FRAMEWORK_ERRORS: Record<string, { status: number; code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: ErrorCodes.validation, message: RequestMessages.malformedJson },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: ErrorCodes.validation, message: RequestMessages.emptyJson },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: ErrorCodes.payloadTooLarge, message: RequestMessages.bodyTooLarge },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: ErrorCodes.unsupportedMediaType,
    message: RequestMessages.unsupportedContentType,
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: ErrorCodes.validation,
    message: RequestMessages.contentLengthMismatch,
  },
  // @fastify/compress decoding request bodies: an unknown Content-Encoding, or a body that is not what it claims.
  FST_CP_ERR_INVALID_CONTENT_ENCODING: {
    status: 415,
    code: ErrorCodes.unsupportedMediaType,
    message: RequestMessages.unsupportedContentEncoding,
  },
  FST_CP_ERR_INVALID_CONTENT: { status: 400, code: ErrorCodes.validation, message: RequestMessages.undecodableBody },
};

/** The error code of a client-error status that Fastify or a plugin set without us knowing its error code. */
const CODE_BY_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: ErrorCodes.validation,
  401: ErrorCodes.unauthorized,
  403: ErrorCodes.forbidden,
  404: ErrorCodes.notFound,
  408: ErrorCodes.requestTimeout,
  409: ErrorCodes.conflict,
  413: ErrorCodes.payloadTooLarge,
  415: ErrorCodes.unsupportedMediaType,
  416: ErrorCodes.rangeNotSatisfiable,
  429: ErrorCodes.rateLimited,
};

/** A 4xx status carried by an error (Fastify's and most plugins' `statusCode`, or `status`), else null. */
function clientErrorStatus(error: FastifyError): number | null {
  const status = error.statusCode ?? (error as { status?: unknown }).status;
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 500 ? status : null;
}

export function errorBody(code: string, message: string, field?: string): ErrorBody {
  return { error: field === undefined ? { code, message } : { code, message, field } };
}

function fieldOf(issue: ValidationIssue): string | undefined {
  const dotted = issue.instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
  if (dotted !== '') return dotted;
  const keys = (issue.params as { keys?: unknown }).keys;
  return Array.isArray(keys) && typeof keys[0] === 'string' ? keys[0] : undefined;
}

/** The first zod issue as one readable message; a missing value reads "<field> is required". */
function validationError(issues: ValidationIssue[], context: string | undefined): HttpError {
  const issue = issues[0];
  if (issue === undefined) return new HttpError(400, ErrorCodes.validation, RequestMessages.invalidRequest);
  const field = fieldOf(issue);
  const missing = issue.keyword === 'invalid_type' && / received (undefined|null)$/.test(issue.message ?? '');
  if (issue.keyword === 'invalid_type' && issue.instancePath.replace(/\//g, '') === '' && context === 'body') {
    return new HttpError(400, ErrorCodes.validation, RequestMessages.bodyNotObject);
  }
  const message = missing ? `${field ?? 'value'} is required` : (issue.message ?? 'Invalid value');
  return new HttpError(400, ErrorCodes.validation, message, field);
}

function toHttpError(error: FastifyError): HttpError | null {
  if (error instanceof HttpError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) return validationError(error.validation, error.validationContext);
  const known = FRAMEWORK_ERRORS[error.code];
  if (known) return new HttpError(known.status, known.code, known.message);
  if (foreignKeyViolation(error)) return new HttpError(409, ErrorCodes.conflict, ServerMessages.referenceGone);
  // Any other client error a framework or plugin reports keeps its status: bad input is never a 500.
  const status = clientErrorStatus(error);
  if (status === null) return null;
  const message = RequestMessages.byStatus[status] ?? RequestMessages.otherClientError;
  return new HttpError(status, CODE_BY_STATUS[status] ?? ErrorCodes.badRequest, message);
}

/** What Node and stream code report when the other end of a connection went away. */
const CONNECTION_GONE_CODES = new Set(['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE']);

/** Whether an error, or one of its causes, says a connection went away (`aborted`, a reset, a broken pipe). */
function isConnectionGone(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const { code, message, cause } = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof code === 'string' && CONNECTION_GONE_CODES.has(code)) return true;
  if (message === 'aborted') return true;
  return isConnectionGone(cause, depth + 1);
}

/**
 * The client went away mid-request (closed the tab, lost the network, cancelled an upload): the error says a
 * connection is gone, and it is the client's that is (its request or socket is destroyed). Nothing failed here, and
 * nobody is left to answer; logged at debug. An ECONNRESET of another connection (a database, S3, a payment provider)
 * while the client still waits is a real failure and stays an error.
 */
export function isClientAbort(error: unknown, request: FastifyRequest): boolean {
  const gone = request.raw.destroyed || request.raw.socket.destroyed;
  return gone && isConnectionGone(error);
}

function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (isClientAbort(error, request)) {
    request.log.debug({ code: error.code, reason: error.message }, 'client went away mid-request');
    // Nobody reads it; written (and dropped) only so Fastify finishes the request as usual.
    return reply
      .status(400)
      .type('application/json')
      .send(errorBody(ErrorCodes.badRequest, RequestMessages.byStatus[400] ?? RequestMessages.otherClientError));
  }
  const http = toHttpError(error);
  if (http === null) {
    // Logged with the request id (pino child logger); the client only learns that something failed.
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .status(500)
      .type('application/json')
      .send(errorBody(ErrorCodes.internal, ServerMessages.internalError));
  }
  if (http.status >= 500) request.log.error({ err: error }, http.message);
  else if (!(error instanceof HttpError)) request.log.info({ code: error.code, reason: error.message }, http.message);
  if (http.retryAfterSeconds !== undefined) reply.header('retry-after', String(http.retryAfterSeconds));
  return reply
    .status(http.status)
    .type('application/json')
    .send(errorBody(http.code, http.message, http.field));
}

/** One error handler for the whole app: every failure leaves as `{"error":{"code","message","field?"}}`. */
export function registerErrorHandler(app: App): void {
  app.setErrorHandler(handleError);
}
