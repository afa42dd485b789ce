/** Headers a proxy adds to say whom it forwards for. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

/** The names of this machine a browser on it uses; a Host may add a port to them. */
const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

type Headers = Record<string, string | string[] | undefined>;

export function isLoopbackAddress(ip: string): boolean {
  const address = ip.startsWith('::ffff:') ? ip.slice('::ffff:'.length) : ip;
  return address === '::1' || /^127(\.\d{1,3}){3}$/.test(address);
}

/**
 * The host name of a Host header value (`name`, `name:port`, `[v6]`, `[v6]:port`), lower-case, IPv6 in brackets; null
 * for anything else (a missing or repeated header, user info, a path, an empty or non-numeric port).
 */
export function hostnameOf(host: string | string[] | undefined): string | null {
  if (typeof host !== 'string') return null;
  const match = /^(\[[0-9a-f:.]+\]|[^\s:/?#@[\]]+)(?::\d{1,5})?$/i.exec(host.trim());
  return match?.[1]?.toLowerCase() ?? null;
}

/** PUBLIC_URL's host name, in the same form as hostnameOf's. */
function publicHostname(publicUrl: string | null): string | null {
  if (publicUrl === null) return null;
  try {
    return new URL(publicUrl).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Whether a Host header names this machine: `localhost`, `127.0.0.1` or `[::1]` (any case, any port), or the host of
 * PUBLIC_URL (the name the operator gave the server, e.g. behind a reverse proxy on the same machine). A page of
 * another site whose name the attacker points at 127.0.0.1 (DNS rebinding) reaches the loopback address, but its
 * requests carry the attacker's name as Host: `localhost.evil.example`, `127.0.0.1.nip.io` are not this machine.
 */
export function isOwnHost(host: string | string[] | undefined, publicUrl: string | null): boolean {
  const name = hostnameOf(host);
  return name !== null && (LOOPBACK_HOSTNAMES.has(name) || name === publicHostname(publicUrl));
}

/** No Origin (not a browser's cross-origin write), or an http(s) origin on one of this machine's names. */
function isOwnOrigin(origin: string | string[] | undefined, publicUrl: string | null): boolean {
  if (origin === undefined) return true;
  if (typeof origin !== 'string') return false;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && isOwnHost(url.host, publicUrl);
  } catch {
    // "null" (a sandboxed page, a file://) and anything unreadable.
    return false;
  }
}

/** The last value of a header a proxy appends to (`a, b`): the one the nearest proxy wrote. */
function lastEntry(value: string | string[] | undefined): string | undefined {
  const last = Array.isArray(value) ? value[value.length - 1] : value;
  return last?.split(',').at(-1)?.trim();
}

/**
 * Whether a request comes from the machine the server runs on, as far as claiming the server goes.
 *
 * - Its address must be loopback, and, unless the operator names the proxies to trust (TRUST_PROXY as a hop count or a
 *   list of addresses, in which case `ip` is the client's address as the nearest trusted proxy saw it), it must carry
 *   no forwarding header: a reverse proxy on the same machine connects from loopback on behalf of anyone.
 *   `TRUST_PROXY=true` is not enough: it believes the leftmost X-Forwarded-For entry, which the client writes itself (a
 *   proxy only appends), so anyone could claim to be 127.0.0.1.
 * - Its Host must name this machine (isOwnHost): a loopback name or PUBLIC_URL's host. Otherwise a web page of any
 *   site, whose name its owner re-points at 127.0.0.1 (DNS rebinding), would be "local" in the browser of someone
 *   sitting at the server. Behind a named trusted proxy, the host the client asked for is the proxy's last
 *   X-Forwarded-Host when it sends one; never X-Forwarded-Host otherwise (a page may set it on its own requests).
 * - Its Origin, when there is one, must be on such a host too.
 */
export function isLocalRequest(
  ip: string,
  headers: Headers,
  trustProxy: boolean | number | string,
  publicUrl: string | null,
): boolean {
  if (!isLoopbackAddress(ip)) return false;
  // A hop count of 0 trusts no proxy, like false; `true` trusts what the client wrote (see above).
  const namedProxy = trustProxy !== false && trustProxy !== true && trustProxy !== 0;
  if (!namedProxy && FORWARDING_HEADERS.some((name) => headers[name] !== undefined)) return false;
  const host = namedProxy ? (lastEntry(headers['x-forwarded-host']) ?? headers.host) : headers.host;
  return isOwnHost(host, publicUrl) && isOwnOrigin(headers.origin, publicUrl);
}
