import { randomUUID } from 'node:crypto';
import type { FastifyServerOptions } from 'fastify';
import PinoPretty from 'pino-pretty';
import type { Config, LogFormat } from './config.js';

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

/** Where the log goes, and what decides its format when LOG_FORMAT does not. */
export interface LogOutput {
  /** Stdout when absent. */
  destination?: NodeJS.WritableStream;
  /** Whether stdout is a terminal; read from the process when absent. */
  isTTY?: boolean;
}

/** LOG_FORMAT, else pretty for a person at a terminal and JSON lines for everything else (journald, collectors). */
export function logFormatOf(config: Pick<Config, 'logFormat'>, isTTY: boolean = stdoutIsTerminal()): LogFormat {
  return config.logFormat ?? (isTTY ? 'pretty' : 'json');
}

/** Node leaves `isTTY` undefined, not false, on a pipe or a file, whatever its type says. */
function stdoutIsTerminal(): boolean {
  return (process.stdout as { isTTY?: boolean }).isTTY === true;
}

/**
 * Pino options for Fastify: every request line carries `reqId`, secrets redacted, as JSON lines or pretty text (the
 * serializers and redaction run before either, so both formats keep the same secrets out).
 */
export function loggerOptions(
  config: Pick<Config, 'logLevel' | 'logFormat'>,
  output: LogOutput = {},
): FastifyServerOptions['logger'] {
  const options = {
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
  if (logFormatOf(config, output.isTTY) === 'json') {
    return output.destination === undefined ? options : { ...options, stream: output.destination };
  }
  return { ...options, stream: prettyStream(output.destination) };
}

/** pino-pretty in this thread (no worker): synchronous, so the last lines before an exit are not lost. */
function prettyStream(destination: NodeJS.WritableStream | undefined): NodeJS.WritableStream {
  return PinoPretty({
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    sync: true,
    // Colours only on a terminal (pino-pretty's own check), never into a stream of the caller's.
    ...(destination === undefined ? {} : { destination, colorize: false }),
  });
}

/** Request ids are ours, not the client's: a client-chosen id could forge or collide with other log lines. */
export const generateRequestId = (): string => randomUUID();
