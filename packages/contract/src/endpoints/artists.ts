import { IMAGE_MAX_BYTES } from '../constants.js';
import { endpoint } from './define.js';

const artistForm = 'multipart/form-data: name, image (JPEG, PNG or WebP, at most 15 MB; optional).';
const artistFiles = { image: { kind: 'image', maxBytes: IMAGE_MAX_BYTES } } as const;

/** Artists (DESIGN §4): any signed-in user reads; admins write. */
export const artists = {
  list: endpoint({
    method: 'GET',
    path: '/artists',
    access: 'session',
    description:
      "Every artist by name (sort=rating: the caller's rated artists first, most stars first, then the others by name); with `limit`, the first that many (the home page shows 12).",
    query: 'ArtistListQuery',
    responses: { 200: 'ArtistList' },
  }),
  get: endpoint({
    method: 'GET',
    path: '/artists/:id',
    access: 'session',
    params: 'IdParam',
    responses: { 200: 'Artist' },
  }),
  credits: endpoint({
    method: 'GET',
    path: '/api/artists/:id/credits',
    access: 'session',
    params: 'IdParam',
    description:
      "Keyset pages of the songs that credit the artist in another role than main artist (composer, producer…), each with the artist's roles on it.",
    query: 'CursorQuery',
    responses: { 200: 'ArtistCreditPage' },
  }),
  create: endpoint({
    method: 'POST',
    path: '/artists',
    access: 'admin',
    description: artistForm,
    form: { fields: 'ArtistFormFields', files: artistFiles },
    responses: { 201: 'Artist' },
  }),
  update: endpoint({
    method: 'PUT',
    path: '/artists/:id',
    access: 'admin',
    params: 'IdParam',
    description: `${artistForm} Both optional: what is absent is kept.`,
    form: { fields: 'ArtistEditFields', files: artistFiles },
    responses: { 200: 'Artist' },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/artists/:id',
    access: 'admin',
    params: 'IdParam',
    responses: { 204: 'empty' },
  }),
} as const;
