import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DemoPayRequest, PlanId } from '@tonearm/contract';
import { api } from '../../lib/api.js';
import { useAuth } from '../../shell/auth/useAuth.js';
import { paymentKeys } from './queries.js';

/** Only the plan id is sent: prices live on the server. */
export function useCheckout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (plan: PlanId) => api.payments.checkout({ body: { plan } }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: paymentKeys.orders() });
    },
  });
}

/**
 * The built-in demo provider's in-app card step; the answer carries the paid order and the upgraded user.
 * Paying upgrades the account at once: the answer's user replaces the stored one, so premium (and its expiry) show
 * without a reload, and Download works straight away.
 */
export function usePayDemoOrder() {
  const { replaceUser } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, card }: { orderId: number; card: DemoPayRequest }) =>
      api.payments.payDemo({ id: orderId, body: card }),
    onSuccess: ({ user }) => {
      // Premium starts the song data preload (useSongDataPreload follows the user).
      replaceUser(user);
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: paymentKeys.orders() });
    },
  });
}
