import type { FastifyInstance } from 'fastify';
import { HttpError } from '../src/http/errors.js';

/** Makes a bare Fastify app answer HttpError as `{"error":{"code","message","field?"}}`, as the app's handler does. */
export function useHttpErrors(app: FastifyInstance): void {
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof HttpError) {
      const field = error.field === undefined ? {} : { field: error.field };
      return reply.code(error.status).send({ error: { code: error.code, message: error.message, ...field } });
    }
    return reply.code(500).send({ error: { code: 'internal-error', message: String(error) } });
  });
}
