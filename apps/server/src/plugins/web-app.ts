import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { ErrorCodes, ServerMessages } from '@tonearm/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../http/app-types.js';
import { errorBody } from './error-handler.js';

/** Paths that belong to the server, never to the React app: unknown ones are JSON 404s. */
const SERVER_PATH = /^\/(api|media)(\/|$)|^\/artists(\/|$)|^\/healthz(\/|$)/;

const IMMUTABLE = 'public, max-age=31536000, immutable';

export function isServerPath(url: string): boolean {
  return SERVER_PATH.test(url.split('?', 1)[0] ?? url);
}

function wantsHtml(request: FastifyRequest): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') && (request.headers.accept ?? '').includes('text/html')
  );
}

function jsonNotFound(reply: FastifyReply): FastifyReply {
  return reply.status(404).type('application/json').send(errorBody(ErrorCodes.notFound, ServerMessages.notFound));
}

/**
 * Serves the built web app when there is one. Vite's hashed /assets/* never change, so they are cached forever;
 * everything else (index.html, the service worker, the manifest) is revalidated so a deploy shows up at once. Any
 * other GET that accepts HTML gets index.html: the React router renders the page, or its own not-found page.
 */
export async function registerWebApp(app: App, webDist: string | null): Promise<void> {
  if (webDist !== null) {
    // reply.sendFile for the not-found handler below; the files themselves are served from the scope after it.
    await app.register(fastifyStatic, { root: webDist, serve: false, cacheControl: false });
    // The static plugin's routes take no route config: they are declared public here, in their own scope.
    await app.register(async (scope) => {
      scope.addHook('onRoute', (route) => {
        route.config = { ...route.config, access: 'public' };
      });
      await scope.register(fastifyStatic, {
        root: webDist,
        decorateReply: false,
        prefix: '/',
        wildcard: true,
        cacheControl: false,
        setHeaders: (reply, filePath) => {
          const inAssets = path.relative(webDist, filePath).startsWith(`assets${path.sep}`);
          reply.header('cache-control', inAssets ? IMMUTABLE : 'no-cache');
        },
      });
    });
  }

  app.setNotFoundHandler((request, reply) => {
    if (webDist !== null && !isServerPath(request.url) && wantsHtml(request)) {
      return reply.status(200).header('cache-control', 'no-cache').sendFile('index.html');
    }
    return jsonNotFound(reply);
  });
}
