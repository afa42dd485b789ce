import { ServerMessages } from '@tonearm/contract';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { App } from '../http/app-types.js';
import { badOrigin } from '../http/errors.js';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** An http(s) origin in its serialised form (default ports dropped), or null. */
function originOf(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * The one origin this server's pages run on: PUBLIC_URL when configured, otherwise the scheme and Host of the request
 * (the scheme from X-Forwarded-Proto only when TRUST_PROXY trusts the proxy). A Host without a port means the
 * scheme's default port, exactly as in the Origin header.
 */
export function expectedOrigin(request: FastifyRequest, publicUrl: string | null): string | null {
  return publicUrl ?? originOf(`${request.protocol}://${request.host}`);
}

/** Fetch metadata a browser sends: anything but same-origin (or a user's own navigation) is refused for writes. */
const ALLOWED_FETCH_SITES = new Set(['same-origin', 'none']);

/**
 * Cross-site request refusal for state-changing methods (DESIGN §7, issue 9). A browser always sends Origin on
 * POST/PUT/PATCH/DELETE, and it must be exactly this server's origin: scheme, host and port. `Sec-Fetch-Site` other
 * than same-origin is refused too. A request with neither header comes from no browser (curl, a server-to-server
 * webhook, an app): it carries no ambient cookies a third-party page could borrow, so it passes.
 */
export function isAllowedOrigin(request: FastifyRequest, publicUrl: string | null): boolean {
  if (!UNSAFE_METHODS.has(request.method)) return true;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && !ALLOWED_FETCH_SITES.has(site)) return false;
  const header = request.headers.origin;
  if (header === undefined) return true;
  const origin = originOf(header);
  return origin !== null && origin === expectedOrigin(request, publicUrl);
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

/**
 * helmet's options for this deployment. The app sends the headers they produce (securityHeaders) as one fixed list;
 * the test compares that list with what helmet itself writes from these options.
 */
export function helmetOptions(config: Pick<Config, 'publicUrl'>) {
  const https = isHttps(config);
  return {
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(https) },
    strictTransportSecurity: https ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: false } : false,
    // Audio and images are requested by <audio>/<img> from our own origin; nothing else embeds them.
    crossOriginResourcePolicy: { policy: 'same-origin' },
  } as const;
}

/**
 * Every response carries securityHeaders(config), set by one synchronous hook. (@fastify/helmet built helmet's
 * middleware again on every request, parsing the CSP each time: about 5% of a small call's CPU, for a list that
 * never changes.)
 */
export function registerSecurity(app: App, config: Config): void {
  const headers = securityHeaders(config);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });

  app.addHook('onRequest', (request, _reply, done) => {
    done(isAllowedOrigin(request, config.publicUrl) ? undefined : badOrigin(ServerMessages.badOrigin));
  });
}
