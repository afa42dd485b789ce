import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * An `onSend` hook for upload routes. A refused upload (413 at the size limit, 415 on the first file) is answered
 * before the client finished sending its body; the unread rest would sit in front of the next request on this
 * keep-alive connection, which then hangs. Closing the connection after the answer discards it without reading
 * (possibly hundreds of megabytes of) bytes nobody wants.
 */
export function closeConnectionIfBodyUnread(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
): void {
  if (!request.raw.complete) reply.header('connection', 'close');
  done(null, payload);
}
