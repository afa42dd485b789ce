import { endpoint } from './define.js';

const setDescription = (item: string) =>
  `Sets the caller's stars (1–5) on the ${item}; 0 clears them. 404 when the ${item} does not exist or is in a library hidden from the caller.`;
const clearDescription = (item: string) => `Clears the caller's stars on the ${item} (idempotent).`;

/** Issue 28: each signed-in user rates for themselves; every write is idempotent. */
export const ratings = {
  rateSong: endpoint({
    method: 'PUT',
    path: '/api/songs/:id/rating',
    access: 'session',
    params: 'IdParam',
    body: 'RatingBody',
    description: setDescription('song'),
    responses: { 204: 'empty' },
  }),
  unrateSong: endpoint({
    method: 'DELETE',
    path: '/api/songs/:id/rating',
    access: 'session',
    params: 'IdParam',
    description: clearDescription('song'),
    responses: { 204: 'empty' },
  }),
  rateAlbum: endpoint({
    method: 'PUT',
    path: '/api/albums/:id/rating',
    access: 'session',
    params: 'IdParam',
    body: 'RatingBody',
    description: setDescription('album'),
    responses: { 204: 'empty' },
  }),
  unrateAlbum: endpoint({
    method: 'DELETE',
    path: '/api/albums/:id/rating',
    access: 'session',
    params: 'IdParam',
    description: clearDescription('album'),
    responses: { 204: 'empty' },
  }),
  rateArtist: endpoint({
    method: 'PUT',
    path: '/api/artists/:id/rating',
    access: 'session',
    params: 'IdParam',
    body: 'RatingBody',
    description: setDescription('artist'),
    responses: { 204: 'empty' },
  }),
  unrateArtist: endpoint({
    method: 'DELETE',
    path: '/api/artists/:id/rating',
    access: 'session',
    params: 'IdParam',
    description: clearDescription('artist'),
    responses: { 204: 'empty' },
  }),
} as const;
