import { useQuery } from '@tanstack/react-query';
import type { Order, Plan, User } from '@tonearm/contract';
import { useState } from 'react';
import { describeError } from '../../lib/api-client.js';
import { UiMessages } from '../../lib/ui-messages.js';
import { CheckCircleIcon, CrownIcon } from '../../ui/icons.js';
import { useAlerts } from '../alerts/useAlerts.js';
import { useCurrentUser } from '../auth/useAuth.js';
import { DemoCardForm } from './DemoCardForm.js';
import { useCheckout } from './mutations.js';
import { paymentQueries } from './queries.js';

function price(plan: Plan): string {
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: plan.currency }).format(
    plan.amountCents / 100,
  );
}

function period(days: number): string {
  if (days >= 360) return 'year';
  if (days >= 28) return 'month';
  return `${days} days`;
}

function PremiumStatus({ user }: { user: User }) {
  if (user.role === 'ADMIN') return <p className="status-pill">Administrators have every Premium feature.</p>;
  if (!user.premium) return <p className="status-pill">You are on the free plan.</p>;
  const until = user.premiumUntil ? new Date(user.premiumUntil).toLocaleDateString() : null;
  return (
    <p className="status-pill status-pill--premium">
      <CheckCircleIcon size={18} />
      Premium is active{until ? ` until ${until}` : ''}.
    </p>
  );
}

const BENEFITS = ['Your songs load the moment you log in', 'Download songs for offline listening', 'No limits, no ads'];

/** `/dashboard/payment`: plans with server-side prices and the checkout. */
export function PaymentPage() {
  const user = useCurrentUser();
  const plans = useQuery(paymentQueries.plans());
  const checkout = useCheckout();
  const alerts = useAlerts();
  const [order, setOrder] = useState<Order | null>(null);

  const choose = (plan: Plan): void => {
    checkout.mutate(plan.id, {
      onSuccess: ({ order: created, redirectUrl }) => {
        if (redirectUrl) window.location.assign(redirectUrl);
        else setOrder(created);
      },
      onError: (error) => {
        alerts.error(UiMessages.checkoutFailed, describeError(error));
      },
    });
  };

  return (
    <div className="page">
      <header className="page-header page-header--premium">
        <div className="page-header__text">
          <p className="eyebrow">
            <CrownIcon size={16} /> Tonearm Premium
          </p>
          <h1 className="page-title">Listen without limits</h1>
          <PremiumStatus user={user} />
        </div>
      </header>
      <ul className="benefits">
        {BENEFITS.map((benefit) => (
          <li key={benefit}>
            <CheckCircleIcon size={18} />
            {benefit}
          </li>
        ))}
      </ul>
      {plans.isPending && <p className="muted">Loading plans…</p>}
      {plans.data && (
        <ul className="plan-grid" aria-label="Plans">
          {plans.data.map((plan) => (
            <li key={plan.id} className="plan card">
              <h2 className="plan__name">{plan.name}</h2>
              <p className="plan__price">
                <strong>{price(plan)}</strong> / {period(plan.periodDays)}
              </p>
              <button
                type="button"
                className="button button--primary button--block"
                disabled={checkout.isPending}
                onClick={() => {
                  choose(plan);
                }}
              >
                Choose {plan.name}
              </button>
            </li>
          ))}
        </ul>
      )}
      {order?.provider === 'demo' && order.status === 'pending' && (
        <DemoCardForm
          order={order}
          onPaid={() => {
            setOrder(null);
          }}
          onOrderClosed={() => {
            setOrder(null);
          }}
        />
      )}
    </div>
  );
}
