import { randomUUID } from 'node:crypto';
import type { FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';

/**
 * Query parameters that carry a Subsonic app's credentials (`/rest/…?u=&p=` or `t`+`s`, `apiKey`): an app signs every
 * call in the URL, so the request log must not keep them.
 */
const CREDENTIAL_PARAMS = ['p', 't', 's', 'apiKey'];
const REDACTED = '[redacted]';

/** The URL as the log keeps it: a Subsonic call's credentials replaced, everything else as it came. */
export function loggedUrl(url: string): string {
  const query = url.indexOf('?');
  if (query === -1 || !url.startsWith('/rest/')) return url;
  const params = new URLSearchParams(url.slice(query + 1));
  for (const name of CREDENTIAL_PARAMS) {
    if (params.has(name)) params.set(name, REDACTED);
  }
  return `${url.slice(0, query)}?${params.toString()}`;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number } | null;
}

/** Pino options for Fastify: JSON lines, every request line carries `reqId`, secrets redacted. */
export function loggerOptions(config: Pick<Config, 'logLevel'>): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      censor: REDACTED,
    },
    serializers: {
      // Fastify's own request fields, with the URL through loggedUrl.
      req: (request: LoggedRequest) => ({
        method: request.method,
        url: loggedUrl(request.url ?? ''),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  };
}

/** Request ids are ours, not the client's: a client-chosen id could forge or collide with other log lines. */
export const generateRequestId = (): string => randomUUID();
