import { IMAGE_MAX_BYTES } from '../constants.js';
import { endpoint } from './define.js';

/** Albums (issue 12): any signed-in user reads; admins write. */
export const albums = {
  list: endpoint({
    method: 'GET',
    path: '/api/albums',
    access: 'session',
    description:
      'Keyset pages of albums by name (sort=recent: newest first; sort=rating: the caller\'s stars, highest first, then the unrated by name); artistId narrows to one album artist, q to names with these words. The placeholder albums ("Unknown album", placeholder: true) are in the list by name only.',
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
  create: endpoint({
    method: 'POST',
    path: '/api/albums',
    access: 'admin',
    body: 'AlbumFields',
    responses: { 201: 'AlbumSummary' },
  }),
  update: endpoint({
    method: 'PUT',
    path: '/api/albums/:id',
    access: 'admin',
    params: 'IdParam',
    description:
      'The fields sent change (artistId null: "Unknown artist"; year null: unknown); the others stay. "Unknown album" is the placeholder\'s name (400); a placeholder given another name becomes an album like any other.',
    body: 'AlbumEditFields',
    responses: { 200: 'AlbumSummary' },
  }),
  setCover: endpoint({
    method: 'PUT',
    path: '/api/albums/:id/cover',
    access: 'admin',
    params: 'IdParam',
    description:
      "multipart/form-data: image (JPEG, PNG or WebP, at most 15 MB), the album's new cover; the one it replaces goes.",
    form: { fields: 'EmptyForm', files: { image: { kind: 'image', maxBytes: IMAGE_MAX_BYTES } } },
    responses: { 200: 'AlbumSummary' },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/albums/:id',
    access: 'admin',
    params: 'IdParam',
    description:
      "The album goes; its songs stay in the catalogue, each on its artist's placeholder album. A placeholder album that still holds songs is not deleted (409).",
    responses: { 204: 'empty' },
  }),
  setSongAlbum: endpoint({
    method: 'PUT',
    path: '/api/songs/:id/album',
    access: 'admin',
    params: 'IdParam',
    description:
      "Moves the song onto an album at a disc and track number, or (albumId null) onto its artist's placeholder album.",
    body: 'SongAlbumFields',
    responses: { 200: 'Song' },
  }),
};
