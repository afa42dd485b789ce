import { createServer, type ServerOptions } from 'node:http';
import type { FastifyServerFactory } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpTimeouts } from '../config.js';
import { watchRequestBody } from './request-timeouts.js';

/** A handler in front of Fastify's router: answers true when it took the request (the lean /media handler). */
export type RawHandler = (request: IncomingMessage, response: ServerResponse) => boolean;

/** The options Fastify hands its serverFactory (its own, with defaults filled in) that shape the node:http server. */
interface FastifyServerOptions {
  http?: ServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number | null;
}

/** How often Node checks its headers and request timeouts: often enough that short ones hold, at most every 30 s. */
function checkingInterval(timeouts: HttpTimeouts): number {
  return Math.min(30_000, Math.max(50, Math.floor(Math.min(timeouts.headersMs, timeouts.uploadMs) / 4)));
}

/**
 * Fastify's `serverFactory`: the node:http server Fastify would make itself (same timeouts, plus the headers timeout
 * and the body watchdog of request-timeouts.ts), whose requests go first to `front()` (the lean media handler, once
 * the app has one) and to Fastify's router when it does not take them. `app.inject` bypasses the server, so tests of
 * what `front` serves, and of timeouts, use a listening app.
 */
export function serverWithFront(front: () => RawHandler | null, timeouts: HttpTimeouts): FastifyServerFactory {
  return (fastifyHandler, rawOptions) => {
    const options = rawOptions as FastifyServerOptions;
    const serverOptions: ServerOptions = {
      ...options.http,
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.uploadMs,
      connectionsCheckingInterval: checkingInterval(timeouts),
    };
    const server = createServer(serverOptions, (request, response) => {
      watchRequestBody(request, response, timeouts);
      if (front()?.(request, response) !== true) fastifyHandler(request, response);
    });
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };
}
