import { endpoint } from './define.js';

/** Music folders read in place: administrators add, rename, scan and remove them. */
export const libraries = {
  list: endpoint({
    method: 'GET',
    path: '/api/libraries',
    access: 'admin',
    responses: { 200: 'LibraryList' },
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/libraries',
    access: 'admin',
    description:
      'Adds a folder on the server as a library (checked for existence and readability) and starts its scan.',
    body: 'CreateLibraryRequest',
    responses: { 201: 'Library' },
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/libraries/:libraryId',
    access: 'admin',
    params: 'LibraryParam',
    responses: { 200: 'Library' },
  }),
  rename: endpoint({
    method: 'PATCH',
    path: '/api/libraries/:libraryId',
    access: 'admin',
    params: 'LibraryParam',
    body: 'RenameLibraryRequest',
    responses: { 200: 'Library' },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/libraries/:libraryId',
    access: 'admin',
    description: "Removes the library's songs from the catalogue; no file on disk is touched.",
    params: 'LibraryParam',
    responses: { 204: 'empty' },
  }),
  setAccess: endpoint({
    method: 'PUT',
    path: '/api/libraries/:libraryId/access',
    access: 'admin',
    description:
      'Chooses who sees the library: everyone, or the listed users (administrators always). Its songs, albums and artists are 404 to anyone else.',
    params: 'LibraryParam',
    body: 'LibraryAccessRequest',
    responses: { 200: 'Library' },
  }),
  scan: endpoint({
    method: 'POST',
    path: '/api/libraries/:libraryId/scan',
    access: 'admin',
    description: 'Starts a scan (or answers the one running) and answers the library with it.',
    params: 'LibraryParam',
    responses: { 200: 'Library' },
  }),
  purgeMissing: endpoint({
    method: 'DELETE',
    path: '/api/libraries/:libraryId/missing',
    access: 'admin',
    description: 'Deletes the songs whose file is missing (their likes and playlist entries go with them).',
    params: 'LibraryParam',
    responses: { 200: 'Library' },
  }),
} as const;
