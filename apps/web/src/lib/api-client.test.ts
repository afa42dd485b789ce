import { describe, expect, it, vi } from 'vitest';
import { errorResponse } from '../test/fixtures.js';
import { mockApi, networkFailure } from '../test/mock-api.js';
import {
  ApiError,
  describeError,
  isApiError,
  NetworkError,
  send,
  UNAUTHORIZED_EVENT,
  withQuery,
} from './api-client.js';

describe('api client', () => {
  it('sends same-origin requests with cookies', async () => {
    const api = mockApi({ 'songs.list': () => [] });
    await send('/api/songs');
    const request = api.requests('songs.list')[0];
    expect(request?.credentials).toBe('include');
    expect(request?.url).toBe('http://localhost/api/songs');
    expect(request?.headers.get('accept')).toBe('application/json');
  });

  it('turns the error body into an ApiError with status, code and message', async () => {
    mockApi({ 'songs.get': () => errorResponse(404, 'not-found', 'Not found') });
    const error: unknown = await send('/api/songs/9').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'not-found', message: 'Not found' });
    expect(isApiError(error, 404)).toBe(true);
    expect(isApiError(error, 401, 403)).toBe(false);
    expect(describeError(error)).toBe('Not found');
  });

  it('keeps a generic message when the error body is not the JSON shape', async () => {
    mockApi({ 'songs.list': () => new Response('<html>Bad gateway</html>', { status: 502 }) });
    await expect(send('/api/songs')).rejects.toMatchObject({ status: 502, message: 'Request failed (502)' });
  });

  it('reports a request that got no answer as a NetworkError', async () => {
    mockApi({ 'songs.list': networkFailure });
    const error: unknown = await send('/api/songs').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(isApiError(error)).toBe(false);
  });

  it('announces a 401 from an ordinary request (the session is gone), but not from the auth endpoints', async () => {
    mockApi({
      'songs.list': () => errorResponse(401, 'unauthorized', 'Please log in to continue'),
      'auth.login': () => errorResponse(401, 'unauthorized', 'Invalid username or password'),
    });
    const heard = vi.fn();
    window.addEventListener(UNAUTHORIZED_EVENT, heard);
    await send('/api/auth/login', 'POST').catch(() => undefined);
    expect(heard).not.toHaveBeenCalled();
    await send('/api/songs').catch(() => undefined);
    expect(heard).toHaveBeenCalledTimes(1);
    window.removeEventListener(UNAUTHORIZED_EVENT, heard);
  });

  it('builds query strings without undefined values', () => {
    expect(withQuery('/api/songs', { artistId: 3, q: undefined })).toBe('/api/songs?artistId=3');
    expect(withQuery('/api/songs', {})).toBe('/api/songs');
  });
});
