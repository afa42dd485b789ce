import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { UserListQuery } from '@tonearm/contract';
import { api } from '../../lib/api.js';
import { UiMessages } from '../../lib/ui-messages.js';

export const USERS_PAGE_SIZE = 20;

export type UserSortField = NonNullable<UserListQuery['sort']>;

/** One page of the admin's user list: the search text ('' for all), the sort and the page. */
export interface UserListParams {
  q: string;
  sort: UserSortField;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (params: UserListParams) => [...userKeys.lists(), params] as const,
};

export const userQueries = {
  /** One page of accounts and the total that match (admin). */
  list: (params: UserListParams) =>
    queryOptions({
      queryKey: userKeys.list(params),
      queryFn: ({ signal }) => {
        const { q, ...rest } = params;
        return api.users.list({ query: { q: q === '' ? undefined : q, ...rest } }, { signal });
      },
      placeholderData: keepPreviousData,
      meta: { errorMessage: UiMessages.failedToLoadUsers },
    }),
};
