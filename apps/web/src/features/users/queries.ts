import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { UiMessages } from '../../lib/ui-messages.js';
import { fetchUsers, type UserListParams } from './users.api.js';

export const USERS_PAGE_SIZE = 20;

export const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (params: UserListParams) => [...userKeys.lists(), params] as const,
};

export const userQueries = {
  list: (params: UserListParams) =>
    queryOptions({
      queryKey: userKeys.list(params),
      queryFn: ({ signal }) => fetchUsers(params, signal),
      placeholderData: keepPreviousData,
      meta: { errorMessage: UiMessages.failedToLoadUsers },
    }),
};
