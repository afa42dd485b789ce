import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { UiMessages } from '../../lib/ui-messages.js';
import { fetchUsers } from './users.api.js';

export const userKeys = {
  all: ['users'] as const,
  list: (q: string) => [...userKeys.all, 'list', q] as const,
};

export const userQueries = {
  list: (q: string) =>
    queryOptions({
      queryKey: userKeys.list(q),
      queryFn: ({ signal }) => fetchUsers(q, signal),
      placeholderData: keepPreviousData,
      meta: { errorMessage: UiMessages.failedToLoadUsers },
    }),
};
