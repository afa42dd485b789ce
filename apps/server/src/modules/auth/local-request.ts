/** Headers a proxy adds to say whom it forwards for. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

export function isLoopbackAddress(ip: string): boolean {
  const address = ip.startsWith('::ffff:') ? ip.slice('::ffff:'.length) : ip;
  return address === '::1' || /^127(\.\d{1,3}){3}$/.test(address);
}

/**
 * Whether a request comes from the machine the server runs on. Its address must be loopback, and, unless the operator
 * trusts a proxy (TRUST_PROXY, in which case `ip` is already the client's address as the proxy reported it), it must
 * carry no forwarding header: a reverse proxy on the same machine connects from loopback on behalf of anyone.
 */
export function isLocalRequest(
  ip: string,
  headers: Record<string, string | string[] | undefined>,
  trustProxy: boolean | number | string,
): boolean {
  if (!isLoopbackAddress(ip)) return false;
  // A hop count of 0 trusts no proxy, like false.
  if (trustProxy !== false && trustProxy !== 0) return true;
  return FORWARDING_HEADERS.every((name) => headers[name] === undefined);
}
