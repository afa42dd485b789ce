import { vi, type Mock } from 'vitest';
import { errorResponse } from './fixtures.js';

export type RouteHandler = (request: Request) => Response | Promise<Response>;

export interface MockApi {
  fetch: Mock<(input: RequestInfo | URL, init?: RequestInit) => Promise<Response>>;
  /** Requests seen so far, as "METHOD /path?query". */
  calls: () => string[];
  /** The Request objects seen for one "METHOD /path" key. */
  requests: (key: string) => Request[];
}

/**
 * Replaces global fetch with a tiny router keyed by "METHOD /path" (query string ignored for matching).
 * Unknown routes answer 404 in the server's error shape, so a missing mock fails loudly in assertions.
 */
export function mockApi(routes: Record<string, RouteHandler>): MockApi {
  const seen: Request[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const target = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const request = new Request(new URL(target, 'http://localhost'), init);
    seen.push(request);
    const url = new URL(request.url);
    const handler = routes[`${request.method} ${url.pathname}`];
    return handler
      ? handler(request)
      : errorResponse(404, 'not-found', `No mock for ${request.method} ${url.pathname}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  const keyOf = (request: Request): string => {
    const url = new URL(request.url);
    return `${request.method} ${url.pathname}${url.search}`;
  };
  return {
    fetch: fetchMock,
    calls: () => seen.map(keyOf),
    requests: (key) => seen.filter((request) => `${request.method} ${new URL(request.url).pathname}` === key),
  };
}

/** A fetch that never reaches a server. */
export function networkFailure(): Promise<Response> {
  return Promise.reject(new TypeError('Failed to fetch'));
}
