import { endpoint } from './define.js';

/** Audio (a session) and images (public), answered by the lean media handler with Range and ETag support. */
export const media = {
  audio: endpoint({
    method: 'GET',
    path: '/media/audio/:key',
    access: 'session',
    responses: { 200: 'binary', 206: 'binary', 304: 'binary' },
  }),
  image: endpoint({
    method: 'GET',
    path: '/media/images/:key',
    access: 'public',
    responses: { 200: 'binary', 304: 'binary' },
  }),
} as const;

export const health = {
  check: endpoint({ method: 'GET', path: '/healthz', access: 'public', responses: { 200: 'HealthResponse' } }),
} as const;
