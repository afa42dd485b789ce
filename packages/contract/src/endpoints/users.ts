import { IMAGE_MAX_BYTES } from '../constants.js';
import { endpoint } from './define.js';

/** Accounts (DESIGN §4 Users): admins list and create; the owner or an admin reads, edits and deletes. */
export const users = {
  list: endpoint({
    method: 'GET',
    path: '/api/users',
    access: 'admin',
    query: 'UserListQuery',
    responses: { 200: 'UserListResponse' },
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/users',
    access: 'admin',
    body: 'CreateUserRequest',
    responses: { 201: 'User' },
  }),
  byId: endpoint({
    method: 'GET',
    path: '/api/users/id/:id',
    access: 'owner',
    params: 'IdParam',
    responses: { 200: 'User' },
  }),
  byUsername: endpoint({
    method: 'GET',
    path: '/api/users/username/:username',
    access: 'owner',
    params: 'UsernameParam',
    responses: { 200: 'User' },
  }),
  update: endpoint({
    method: 'PUT',
    path: '/api/users/:id',
    access: 'owner',
    params: 'IdParam',
    body: 'UpdateUserRequest',
    responses: { 200: 'User' },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/users/:id',
    access: 'owner',
    params: 'IdParam',
    body: 'DeleteUserRequest',
    bodyOptional: true,
    responses: { 204: 'empty' },
  }),
  updatePhoto: endpoint({
    method: 'PUT',
    path: '/api/users/:id/update-photo',
    access: 'owner',
    params: 'IdParam',
    description: 'multipart/form-data: image (JPEG, PNG or WebP, at most 15 MB and 40 megapixels by default).',
    form: { fields: 'EmptyForm', files: { image: { kind: 'image', maxBytes: IMAGE_MAX_BYTES } } },
    responses: { 200: 'User' },
  }),
  removePhoto: endpoint({
    method: 'DELETE',
    path: '/api/users/:id/remove-photo',
    access: 'owner',
    params: 'IdParam',
    responses: { 200: 'User' },
  }),
} as const;
