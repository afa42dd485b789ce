import { endpointList, type EndpointById, type EndpointId, type EndpointSpec, type JsonOf } from '@tonearm/contract';
import { vi, type Mock } from 'vitest';
import { errorResponse, jsonResponse } from './fixtures.js';

/** A mock of one declared endpoint: a Response, or for a JSON endpoint its body, typed by the contract. */
export type EndpointMock<E extends EndpointSpec> = (
  request: Request,
) => Response | JsonOf<E> | Promise<Response | JsonOf<E>>;

/** Mocks by endpoint id (`'playlists.get'`): the path pattern and method come from the contract declaration. */
export type MockRoutes = { [Id in EndpointId]?: EndpointMock<EndpointById<Id>> };

export interface MockApi {
  fetch: Mock<(input: RequestInfo | URL, init?: RequestInit) => Promise<Response>>;
  /** Requests seen so far, as "METHOD /path?query". */
  calls: () => string[];
  /** The Request objects seen for one endpoint id (any path parameters: assert on `url` where they matter). */
  requests: (id: EndpointId) => Request[];
}

interface Matcher {
  id: EndpointId;
  method: string;
  pattern: RegExp;
}

function patternOf(path: string): RegExp {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, '[^/]+');
  return new RegExp(`^${escaped}$`);
}

/** Literal paths win over parameterised ones (`/api/songs/liked` before `/api/songs/:id`). */
const matchers: Matcher[] = endpointList
  .map(({ id, spec }) => ({
    id,
    method: spec.method,
    pattern: patternOf(spec.path),
    literal: !spec.path.includes(':'),
  }))
  .sort((a, b) => Number(b.literal) - Number(a.literal));

/** The declared endpoint a request is for, if any. */
export function endpointOf(request: Request): EndpointId | undefined {
  const { pathname } = new URL(request.url);
  return matchers.find((matcher) => matcher.method === request.method && matcher.pattern.test(pathname))?.id;
}

async function answer(handler: EndpointMock<EndpointSpec>, request: Request): Promise<Response> {
  const result = await handler(request);
  return result instanceof Response ? result : jsonResponse(result);
}

/**
 * Replaces global fetch with a router over the contract's endpoints, keyed by endpoint id. A request for an endpoint
 * without a mock (or for no endpoint at all) answers 404 in the server's error shape, so it fails loudly.
 */
export function mockApi(routes: MockRoutes): MockApi {
  const seen: Request[] = [];
  const handlers = routes as Partial<Record<EndpointId, EndpointMock<EndpointSpec>>>;
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const target = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const request = new Request(new URL(target, 'http://localhost'), init);
    seen.push(request);
    const id = endpointOf(request);
    const handler = id === undefined ? undefined : handlers[id];
    return handler
      ? answer(handler, request)
      : errorResponse(404, 'not-found', `No mock for ${request.method} ${new URL(request.url).pathname}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  const keyOf = (request: Request): string => {
    const url = new URL(request.url);
    return `${request.method} ${url.pathname}${url.search}`;
  };
  return {
    fetch: fetchMock,
    calls: () => seen.map(keyOf),
    requests: (id) => seen.filter((request) => endpointOf(request) === id),
  };
}

/** A fetch that never reaches a server. */
export function networkFailure(): Promise<Response> {
  return Promise.reject(new TypeError('Failed to fetch'));
}
