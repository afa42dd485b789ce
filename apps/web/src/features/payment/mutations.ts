import { useMutation } from '@tanstack/react-query';
import type { DemoPayRequest, PlanId } from '@tonearm/contract';
import { useAuth } from '../auth/useAuth.js';
import { checkout, payDemoOrder } from './payment.api.js';

export function useCheckout() {
  return useMutation({ mutationFn: (plan: PlanId) => checkout(plan) });
}

/** Paying upgrades the account at once: the answer's user replaces the stored one. */
export function usePayDemoOrder() {
  const { replaceUser } = useAuth();
  return useMutation({
    mutationFn: ({ orderId, card }: { orderId: number; card: DemoPayRequest }) => payDemoOrder(orderId, card),
    onSuccess: ({ user }) => {
      replaceUser(user);
    },
  });
}
