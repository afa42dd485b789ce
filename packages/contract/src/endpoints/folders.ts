import { endpoint } from './define.js';

/** Libraries browsed by their real folders (issue 25): any signed-in user, within the libraries they see. */
export const folders = {
  libraries: endpoint({
    method: 'GET',
    path: '/api/folders',
    access: 'session',
    description: 'The libraries the user sees, with how many songs each has (missing ones left out).',
    responses: { 200: 'FolderLibraryList' },
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/folders/:libraryId',
    access: 'session',
    description:
      'A folder of the library (path relative to it, "" or none for the root): its subfolders with their song counts, then its own songs, in path order, in pages (cursor). A path that names no folder holding songs, or a library the user does not see, is 404.',
    params: 'LibraryParam',
    query: 'FolderQuery',
    responses: { 200: 'Folder' },
  }),
} as const;
