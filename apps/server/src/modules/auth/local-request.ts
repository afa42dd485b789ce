/** Headers a proxy adds to say whom it forwards for. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

export function isLoopbackAddress(ip: string): boolean {
  const address = ip.startsWith('::ffff:') ? ip.slice('::ffff:'.length) : ip;
  return address === '::1' || /^127(\.\d{1,3}){3}$/.test(address);
}

/**
 * Whether a request comes from the machine the server runs on. Its address must be loopback, and, unless the operator
 * names the proxies to trust (TRUST_PROXY as a hop count or a list of addresses, in which case `ip` is the client's
 * address as the nearest trusted proxy saw it), it must carry no forwarding header: a reverse proxy on the same machine
 * connects from loopback on behalf of anyone. `TRUST_PROXY=true` is not enough: it believes the leftmost
 * X-Forwarded-For entry, which the client writes itself (a proxy only appends), so anyone could claim to be 127.0.0.1.
 */
export function isLocalRequest(
  ip: string,
  headers: Record<string, string | string[] | undefined>,
  trustProxy: boolean | number | string,
): boolean {
  if (!isLoopbackAddress(ip)) return false;
  // A hop count of 0 trusts no proxy, like false; `true` trusts what the client wrote (see above).
  if (trustProxy !== false && trustProxy !== true && trustProxy !== 0) return true;
  return FORWARDING_HEADERS.every((name) => headers[name] === undefined);
}
