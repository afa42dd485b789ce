import { endpoint } from './define.js';

/** Song radio (issue 28): the next songs like a seed, computed on this server. */
export const radio = {
  next: endpoint({
    method: 'POST',
    path: '/api/radio/next',
    access: 'session',
    body: 'RadioRequest',
    responses: { 200: 'RadioResponse' },
  }),
} as const;
