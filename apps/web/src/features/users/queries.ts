import { infiniteQueryOptions, keepPreviousData } from '@tanstack/react-query';
import type { UserListQuery } from '@tonearm/contract';
import { api } from '../../lib/api.js';
import { UiMessages } from '../../lib/ui-messages.js';

export const USERS_PAGE_SIZE = 20;

export type UserSortField = NonNullable<UserListQuery['sort']>;

/** The admin's user list: the search text ('' for all) and the sort. */
export interface UserListParams {
  q: string;
  sort: UserSortField;
  order: 'asc' | 'desc';
}

export const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (params: UserListParams) => [...userKeys.lists(), params] as const,
};

export const userQueries = {
  /** The accounts that match, in the chosen sort, a page at a time (`nextCursor`), and their total (admin). */
  list: ({ q, sort, order }: UserListParams) =>
    infiniteQueryOptions({
      queryKey: userKeys.list({ q, sort, order }),
      queryFn: ({ pageParam, signal }) => {
        const query = {
          q: q === '' ? undefined : q,
          sort,
          order,
          limit: USERS_PAGE_SIZE,
          cursor: pageParam ?? undefined,
        };
        return api.users.list({ query }, { signal });
      },
      initialPageParam: null as string | null,
      getNextPageParam: (page) => page.nextCursor,
      placeholderData: keepPreviousData,
      meta: { errorMessage: UiMessages.failedToLoadUsers },
    }),
};
