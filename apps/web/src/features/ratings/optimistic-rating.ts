import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { UiMessages } from '../../lib/ui-messages.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';

/**
 * Issue 28: the caller's stars on the one item a cached answer holds (an album's page, an artist's), 0 clearing them.
 * Shown at once in that answer; a refused rating puts back what was there and says so.
 */
/** Any cached answer that carries the caller's rating (Album, Artist); its other fields are kept as they are. */
interface Rated {
  rating?: number | null;
}

/**
 * `lists`: the cached lists the rating may reorder (those sorted by rating), read again once it is stored or refused.
 */
export function useOptimisticRating(
  queryKey: QueryKey,
  send: (rating: number) => Promise<unknown>,
  lists: readonly QueryKey[] = [],
) {
  const queryClient = useQueryClient();
  const alerts = useAlerts();
  const apply = (rating: number | null): void => {
    queryClient.setQueryData<Rated>(queryKey, (item) => item && { ...item, rating });
  };
  return useMutation({
    mutationFn: send,
    onMutate: async (rating: number) => {
      // A refetch under way would land without the change.
      await queryClient.cancelQueries({ queryKey, exact: true });
      const before = queryClient.getQueryData<Rated>(queryKey)?.rating ?? null;
      apply(rating === 0 ? null : rating);
      return { before };
    },
    onError: (_error, _rating, context) => {
      apply(context?.before ?? null);
      alerts.error(UiMessages.ratingFailed);
    },
    onSettled: () => Promise.all(lists.map((list) => queryClient.invalidateQueries({ queryKey: list }))),
  });
}
