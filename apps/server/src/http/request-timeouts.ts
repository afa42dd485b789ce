import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ErrorCodes, RequestMessages, type ErrorCode } from '@tonearm/contract';
import type { HttpTimeouts } from '../config.js';

/**
 * Request timeouts beyond Node's own. Node's `headersTimeout` and `requestTimeout` (set by the server factory) bound
 * the headers and, as a backstop, the whole request; they answer through Fastify's clientErrorHandler, which
 * `clientErrorAnswer` below words in our error shape. The body watchdog here adds the two deadlines Node has no knob
 * for: an ordinary body (JSON, forms) must have arrived `requestMs` after the headers, and an upload (multipart) is
 * cut only when it stops moving for `uploadIdleMs`, so a slow but steady upload goes on up to the backstop.
 */

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** Writes a whole HTTP/1.1 answer on a socket that Node's response object does not own (or no longer can use). */
function writeRawAnswer(socket: Socket, status: number, code: ErrorCode, message: string): void {
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Frees the connection once what was written is flushed, or at the latest after a moment. */
function closeSoon(socket: Socket): void {
  const destroy = () => socket.destroy();
  socket.once('finish', destroy);
  setTimeout(destroy, 1000).unref();
}

/**
 * Fastify's `clientErrorHandler`: what Node reports before a request reaches the router (headers or whole-request
 * timeout, a malformed request line, headers too large), answered in our error shape, then the connection closed.
 */
export function clientErrorAnswer(error: NodeJS.ErrnoException, socket: Socket): void {
  // A connection we are already closing (a timeout answered, a lingering close) gets no second answer.
  if (error.code === 'ECONNRESET' || socket.destroyed || socket.writableEnded) return;
  if (socket.writable) {
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      writeRawAnswer(socket, 408, ErrorCodes.requestTimeout, RequestMessages.requestTimeout);
    } else if (error.code === 'HPE_HEADER_OVERFLOW') {
      writeRawAnswer(
        socket,
        431,
        ErrorCodes.badRequest,
        RequestMessages.byStatus[431] ?? RequestMessages.otherClientError,
      );
    } else {
      writeRawAnswer(
        socket,
        400,
        ErrorCodes.badRequest,
        RequestMessages.byStatus[400] ?? RequestMessages.otherClientError,
      );
    }
  }
  closeSoon(socket);
}

function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export function isUpload(request: IncomingMessage): boolean {
  return /^multipart\//i.test(request.headers['content-type'] ?? '');
}

/**
 * Watches the body of one request (call it when the request arrives, before anything reads it). When the deadline or
 * the idle limit passes with the body still incomplete, the client gets a 408 (unless an answer has begun, then the
 * connection is simply closed) and the connection is freed; whoever was reading the body sees it aborted.
 */
export function watchRequestBody(
  request: IncomingMessage,
  response: ServerResponse,
  timeouts: Pick<HttpTimeouts, 'requestMs' | 'uploadIdleMs'>,
): void {
  if (request.complete || !hasBody(request)) return;
  const socket = request.socket;
  const upload = isUpload(request);
  let timer: NodeJS.Timeout | undefined;
  const stop = () => {
    clearTimeout(timer);
    clearInterval(timer);
  };
  const expire = () => {
    stop();
    if (request.complete || socket.destroyed) return;
    if (response.headersSent) socket.destroy();
    else {
      writeRawAnswer(socket, 408, ErrorCodes.requestTimeout, RequestMessages.requestTimeout);
      closeSoon(socket);
    }
  };
  if (upload) {
    // Idle, not total: the socket's byte count shows whether the body still moves, without reading it ourselves.
    let seen = socket.bytesRead;
    let movedAt = Date.now();
    const every = Math.max(10, Math.floor(timeouts.uploadIdleMs / 4));
    timer = setInterval(() => {
      if (request.complete) stop();
      else if (socket.bytesRead !== seen) {
        seen = socket.bytesRead;
        movedAt = Date.now();
      } else if (Date.now() - movedAt >= timeouts.uploadIdleMs) expire();
    }, every);
  } else {
    timer = setTimeout(expire, timeouts.requestMs);
  }
  timer.unref();
  request.once('end', stop);
  request.once('close', stop);
}
