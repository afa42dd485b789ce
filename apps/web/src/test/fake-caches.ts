import { vi } from 'vitest';

/**
 * A Cache Storage stand-in for jsdom (which has none): enough of `caches.open` / `put` / `match` / `delete` / `keys`
 * for the download code, keyed by absolute URL like the real one.
 */
export function installFakeCaches(base = 'http://localhost') {
  const stores = new Map<string, Map<string, Response>>();
  const keyOf = (request: RequestInfo | URL): string =>
    new URL(typeof request === 'string' || request instanceof URL ? request : request.url, base).href;
  const open = (name: string): Cache => {
    let store = stores.get(name);
    if (!store) {
      store = new Map();
      stores.set(name, store);
    }
    const entries = store;
    const cache = {
      put: (request: RequestInfo | URL, response: Response) => {
        entries.set(keyOf(request), response);
        return Promise.resolve();
      },
      match: (request: RequestInfo | URL) => Promise.resolve(entries.get(keyOf(request))?.clone()),
      delete: (request: RequestInfo | URL) => Promise.resolve(entries.delete(keyOf(request))),
      keys: () => Promise.resolve([...entries.keys()].map((url) => new Request(url))),
    };
    return cache as unknown as Cache;
  };
  vi.stubGlobal('caches', {
    open: (name: string) => Promise.resolve(open(name)),
    has: (name: string) => Promise.resolve(stores.has(name)),
    delete: (name: string) => Promise.resolve(stores.delete(name)),
  });
  return {
    /** Absolute URLs stored in cache `name`. */
    urls: (name: string): string[] => [...(stores.get(name)?.keys() ?? [])],
  };
}
