import type { ErrorBody } from '@tonearm/contract';

/** The server answered, but not with 2xx. Carries the `{"error":{code,message}}` body of DESIGN §4. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;

  constructor(status: number, code: string, message: string, field?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

/** The request never got an answer (offline, server down, connection reset). */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('The server could not be reached', { cause });
    this.name = 'NetworkError';
  }
}

/**
 * A query's alert text (query-client.ts's errorMessage) that stays silent for a 404: the page shows what is not there
 * itself (a playlist deleted or never shared).
 */
export function unlessNotFound(message: (error: Error) => string): (error: Error) => string | null {
  return (error) => (isApiError(error, 404) ? null : message(error));
}

export function isApiError(error: unknown, ...statuses: number[]): error is ApiError {
  return error instanceof ApiError && (statuses.length === 0 || statuses.includes(error.status));
}

export function isNetworkError(error: unknown): error is NetworkError {
  return error instanceof NetworkError;
}

/** Checked by hand rather than with the contract's zod schema, so zod stays out of the start-up bundle. */
function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const error: unknown = value.error;
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, field } = error as Record<string, unknown>;
  return typeof code === 'string' && typeof message === 'string' && (field === undefined || typeof field === 'string');
}

async function errorFromResponse(response: Response): Promise<ApiError> {
  const fallback = `Request failed (${response.status})`;
  try {
    const body: unknown = await response.json();
    if (isErrorBody(body)) {
      const { code, message, field } = body.error;
      return new ApiError(response.status, code, message, field);
    }
  } catch {
    // Not JSON (a proxy page, an empty body): keep the generic message.
  }
  return new ApiError(response.status, 'http-error', fallback);
}

type Body = FormData | object | undefined;

function buildInit(method: string, body: Body, signal: AbortSignal | undefined): RequestInit {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const init: RequestInit = { method, credentials: 'include', headers };
  if (signal) init.signal = signal;
  if (body instanceof FormData) {
    init.body = body;
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    headers['Content-Type'] = 'application/json';
  }
  return init;
}

/** Same-origin fetch with cookies; resolves only for 2xx answers. */
export async function send(path: string, method = 'GET', body?: Body, signal?: AbortSignal): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, buildInit(method, body, signal));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new NetworkError(error);
  }
  if (!response.ok) {
    if (response.status === 401) reportUnauthorized(path);
    throw await errorFromResponse(response);
  }
  return response;
}

/** Fired on window when an ordinary request finds the session gone (expired, or ended on another device). */
export const UNAUTHORIZED_EVENT = 'tonearm:unauthorized';

/** Auth endpoints answer 401 as part of their job (a wrong password); any other 401 means the session is gone. */
function reportUnauthorized(path: string): void {
  if (path.startsWith('/api/auth/') || typeof window === 'undefined') return;
  window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
}

/** Builds `path?key=value` skipping undefined values. */
export function withQuery(path: string, params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) search.set(key, String(value));
  }
  const query = search.toString();
  return query === '' ? path : `${path}?${query}`;
}

/** A second line for an error alert: the server's own reason, or a hint that the server is unreachable. */
export function describeError(error: unknown): string | undefined {
  if (error instanceof ApiError) return error.message;
  if (error instanceof NetworkError) return 'The server could not be reached. Check your connection and try again.';
  return undefined;
}
