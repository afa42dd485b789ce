import helmet from '@fastify/helmet';
import { ServerMessages } from '@tonearm/contract';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { App } from '../http/app-types.js';
import { badOrigin } from '../http/errors.js';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function parseOrigin(origin: string): URL | null {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * Whether the Origin names the host the request was sent to. The Host header carries a port only when it is not the
 * default one, while Origin always implies one; compare host names, and ports only when Host states one.
 */
function matchesHost(origin: URL, host: string): boolean {
  const port = /:(\d+)$/.exec(host)?.[1];
  const hostname = port === undefined ? host : host.slice(0, -(port.length + 1));
  if (hostname.toLowerCase() !== origin.hostname.toLowerCase()) return false;
  return port === undefined || port === (origin.port || (origin.protocol === 'https:' ? '443' : '80'));
}

/**
 * Cross-site request refusal for state-changing methods (DESIGN §7). Browsers always send Origin on cross-site POSTs
 * and fetches, so a present Origin must name this server (its Host, or PUBLIC_URL behind a proxy). Requests without
 * Origin (curl, server-to-server webhooks, tests) carry no ambient browser cookies worth protecting against and pass.
 */
export function isAllowedOrigin(request: FastifyRequest, publicUrl: string | null): boolean {
  if (!UNSAFE_METHODS.has(request.method)) return true;
  const header = request.headers.origin;
  if (header === undefined) return true;
  const origin = parseOrigin(header);
  if (origin === null) return false;
  if (publicUrl !== null && origin.origin === publicUrl) return true;
  return matchesHost(origin, request.host);
}

/** The Content-Security-Policy of every response (helmet's camelCase directive names). */
function cspDirectives(https: boolean): Record<string, string[]> {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    // React sets style attributes and some libraries inject <style>; scripts stay strictly same-origin.
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'blob:', 'data:'],
    mediaSrc: ["'self'", 'blob:', 'data:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    workerSrc: ["'self'"],
    manifestSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    // Only upgrade when the deployment is known to be https; on plain http it would break every asset.
    ...(https ? { upgradeInsecureRequests: [] } : {}),
  };
}

const HSTS_MAX_AGE_SECONDS = 15_552_000;

const isHttps = (config: Pick<Config, 'publicUrl'>) => config.publicUrl?.startsWith('https:') === true;

/**
 * The headers helmet adds to every Fastify response, as a fixed list for the lean media handler (media-handler.ts),
 * which answers before Fastify's hooks run. Kept equal to helmet's output by the streaming tests, which compare the
 * two over HTTP.
 */
export function securityHeaders(config: Pick<Config, 'publicUrl'>): Record<string, string> {
  const https = isHttps(config);
  const csp = Object.entries(cspDirectives(https))
    .map(([name, values]) => [name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), ...values].join(' '))
    .join(';');
  return {
    'content-security-policy': csp,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    ...(https ? { 'strict-transport-security': `max-age=${HSTS_MAX_AGE_SECONDS}` } : {}),
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  };
}

export async function registerSecurity(app: App, config: Config): Promise<void> {
  const https = isHttps(config);
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(https) },
    strictTransportSecurity: https ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: false } : false,
    // Audio and images are requested by <audio>/<img> from our own origin; nothing else embeds them.
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });

  app.addHook('onRequest', (request, _reply, done) => {
    done(isAllowedOrigin(request, config.publicUrl) ? undefined : badOrigin(ServerMessages.badOrigin));
  });
}
