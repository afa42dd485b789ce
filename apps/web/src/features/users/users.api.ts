import type { UserListResponse } from '@tonearm/contract';
import { getJson, withQuery } from '../../lib/api-client.js';

export function fetchUsers(q: string, signal?: AbortSignal): Promise<UserListResponse> {
  return getJson<UserListResponse>(withQuery('/api/users', { q: q === '' ? undefined : q, limit: 200 }), signal);
}
