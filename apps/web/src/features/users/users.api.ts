import type { CreateUserRequest, UpdateUserRequest, User, UserListResponse } from '@tonearm/contract';
import { getJson, send, sendForJson, withQuery } from '../../lib/api-client.js';

export type UserSortField = 'username' | 'email' | 'role' | 'premiumUntil' | 'createdAt';

export interface UserListParams {
  q: string;
  sort: UserSortField;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** GET /api/users (admin): one page of accounts and the total that match. */
export function fetchUsers(params: UserListParams, signal?: AbortSignal): Promise<UserListResponse> {
  const { q, ...rest } = params;
  return getJson<UserListResponse>(withQuery('/api/users', { q: q === '' ? undefined : q, ...rest }), signal);
}

/** PUT /api/users/{id}: self (profile, password with the current one) or admin (also role and premium). */
export function updateUser(userId: number, changes: UpdateUserRequest): Promise<User> {
  return sendForJson<User>(`/api/users/${userId}`, 'PUT', changes);
}

/** DELETE /api/users/{id}: one's own account with the current password; an admin deleting another sends none. */
export async function deleteUser(userId: number, currentPassword?: string): Promise<void> {
  await send(`/api/users/${userId}`, 'DELETE', currentPassword === undefined ? undefined : { currentPassword });
}

/** POST /api/users (admin): answers the new account. */
export function createUser(account: CreateUserRequest): Promise<User> {
  return sendForJson<User>('/api/users', 'POST', account);
}

export function uploadUserPhoto(userId: number, image: File): Promise<User> {
  const form = new FormData();
  form.set('image', image);
  return sendForJson<User>(`/api/users/${userId}/update-photo`, 'PUT', form);
}

export function removeUserPhoto(userId: number): Promise<User> {
  return sendForJson<User>(`/api/users/${userId}/remove-photo`, 'DELETE');
}
