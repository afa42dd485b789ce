import { randomUUID } from 'node:crypto';
import type { FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';

/** Pino options for Fastify: JSON lines, every request line carries `reqId`, secrets redacted. */
export function loggerOptions(config: Pick<Config, 'logLevel'>): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      censor: '[redacted]',
    },
  };
}

/** Request ids are ours, not the client's: a client-chosen id could forge or collide with other log lines. */
export const generateRequestId = (): string => randomUUID();
