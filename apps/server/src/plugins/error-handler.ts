import { ErrorCodes, ServerMessages, type ErrorBody, type ErrorCode } from '@tonearm/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { App } from '../http/app-types.js';
import { foreignKeyViolation } from '../db/errors.js';
import { HttpError } from '../http/errors.js';

type ValidationIssue = NonNullable<FastifyError['validation']>[number];

/** Fastify's own client errors, answered in our shape. Anything else unexpected is a 500. */
const FRAMEWORK_ERRORS: Record<string, { status: number; code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: ErrorCodes.validation, message: 'Malformed JSON body' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: ErrorCodes.validation,
    message: 'Request body is empty but declared as JSON',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: ErrorCodes.payloadTooLarge, message: 'Request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: ErrorCodes.unsupportedMediaType,
    message: 'Unsupported content type',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: ErrorCodes.validation,
    message: 'Content-Length does not match the body',
  },
};

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
  if (issue === undefined) return new HttpError(400, ErrorCodes.validation, 'Invalid request');
  const field = fieldOf(issue);
  const missing = issue.keyword === 'invalid_type' && / received (undefined|null)$/.test(issue.message ?? '');
  if (issue.keyword === 'invalid_type' && issue.instancePath.replace(/\//g, '') === '' && context === 'body') {
    return new HttpError(400, ErrorCodes.validation, 'Request body must be a JSON object');
  }
  const message = missing ? `${field ?? 'value'} is required` : (issue.message ?? 'Invalid value');
  return new HttpError(400, ErrorCodes.validation, message, field);
}

function toHttpError(error: FastifyError): HttpError | null {
  if (error instanceof HttpError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) return validationError(error.validation, error.validationContext);
  const known = FRAMEWORK_ERRORS[error.code];
  if (known) return new HttpError(known.status, known.code, known.message);
  if (error.statusCode === 429) return new HttpError(429, ErrorCodes.rateLimited, ServerMessages.rateLimited);
  if (foreignKeyViolation(error)) return new HttpError(409, ErrorCodes.conflict, ServerMessages.referenceGone);
  return null;
}

function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
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
  const retryAfter = (http as { retryAfterSeconds?: unknown }).retryAfterSeconds;
  if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
  return reply
    .status(http.status)
    .type('application/json')
    .send(errorBody(http.code, http.message, http.field));
}

/** One error handler for the whole app: every failure leaves as `{"error":{"code","message","field?"}}`. */
export function registerErrorHandler(app: App): void {
  app.setErrorHandler(handleError);
}
