import { endpoint } from './define.js';

/** Albums (issue 12): any signed-in user reads. */
export const albums = {
  list: endpoint({
    method: 'GET',
    path: '/api/albums',
    access: 'session',
    description: 'Keyset pages of albums by name; artistId narrows to one album artist, q to names with these words.',
    query: 'AlbumPageQuery',
    responses: { 200: 'AlbumPage' },
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/albums/:id',
    access: 'session',
    params: 'IdParam',
    description: 'The album and its songs in disc and track order.',
    responses: { 200: 'Album' },
  }),
};
