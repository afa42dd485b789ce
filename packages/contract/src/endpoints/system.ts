import { endpoint } from './define.js';

/** Audio (a session) and images (public), answered by the lean media handler with Range and ETag support. */
export const media = {
  audio: endpoint({
    method: 'GET',
    path: '/media/audio/:key',
    access: 'session',
    description:
      '`?format=opus|mp3&bitrate=64..320` (kbit/s, default 128) converts the audio when the server has ffmpeg ' +
      '(see `GET /api/media/capabilities`), and serves the original file when it has not.',
    responses: { 200: 'binary', 206: 'binary', 304: 'binary' },
  }),
  image: endpoint({
    method: 'GET',
    path: '/media/images/:key',
    access: 'public',
    responses: { 200: 'binary', 304: 'binary' },
  }),
  capabilities: endpoint({
    method: 'GET',
    path: '/api/media/capabilities',
    access: 'session',
    summary: 'Whether this server transcodes audio (`/media/audio/{key}?format=opus|mp3&bitrate=64..320`)',
    responses: { 200: 'MediaCapabilities' },
  }),
} as const;

export const health = {
  check: endpoint({ method: 'GET', path: '/healthz', access: 'public', responses: { 200: 'HealthResponse' } }),
} as const;
