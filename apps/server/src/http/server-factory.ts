import { createServer, type ServerOptions } from 'node:http';
import type { FastifyServerFactory } from 'fastify';
import type { RawHandler } from '../modules/media/media-handler.js';

/** The options Fastify hands its serverFactory (its own, with defaults filled in) that shape the node:http server. */
interface FastifyServerOptions {
  http?: ServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number | null;
}

/**
 * Fastify's `serverFactory`: the node:http server Fastify would make itself (same timeouts), whose requests go first
 * to `front()` (the lean media handler, once the app has one) and to Fastify's router when it does not take them.
 * `app.inject` bypasses the server, so tests of what `front` serves use a listening app.
 */
export function serverWithFront(front: () => RawHandler | null): FastifyServerFactory {
  return (fastifyHandler, rawOptions) => {
    const options = rawOptions as FastifyServerOptions;
    const server = createServer(options.http ?? {}, (request, response) => {
      if (front()?.(request, response) !== true) fastifyHandler(request, response);
    });
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };
}
