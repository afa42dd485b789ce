import { useQuery } from '@tanstack/react-query';
import { isAdmin, mayDownload, PaymentMessages, type Order, type Plan, type User } from '@tonearm/contract';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { describeError } from '../../lib/api-client.js';
import { Paths } from '../../lib/paths.js';
import { describePremium, formatDate } from '../../lib/premium.js';
import { UiMessages } from '../../lib/ui-messages.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import { useCurrentUser } from '../../shell/auth/useAuth.js';
import { CheckCircleIcon, CrownIcon, DownloadIcon, ErrorIcon } from '../../ui/icons.js';
import { DemoCardForm } from './DemoCardForm.js';
import { useCheckout } from './mutations.js';
import { paymentReasonFrom } from './payment-reason.js';
import { paymentQueries } from './queries.js';
import '../../ui/badge.css';
import '../../ui/buttons.css';
import '../../ui/card.css';
import '../../ui/notice.css';
import '../../ui/page.css';
import '../../ui/table.css';
import './PaymentPage.css';

export function formatPrice(amountCents: number, currency: string): string {
  return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amountCents / 100);
}

function period(days: number): string {
  if (days >= 360) return 'year';
  if (days >= 28) return 'month';
  return `${days} days`;
}

/** The user's plan as it stands now: follows the stored user, so a purchase shows at once. */
function PremiumStatus({ user }: { user: User }) {
  if (isAdmin(user)) {
    return (
      <p className="status-pill" data-testid="premium-status">
        Administrators have every Premium feature.
      </p>
    );
  }
  if (!user.premium) {
    return (
      <p className="status-pill" data-testid="premium-status">
        You are on the free plan.
      </p>
    );
  }
  return (
    <p className="status-pill status-pill--premium" data-testid="premium-status">
      <CheckCircleIcon size={18} />
      {describePremium(user)}.
    </p>
  );
}

const BENEFITS = ['Your songs load the moment you log in', 'Download songs for offline listening', 'No limits, no ads'];

type Result = { kind: 'paid'; order: Order; user: User } | { kind: 'failed'; reason: string };

function PaymentResult({ result, onDismiss }: { result: Result; onDismiss: () => void }) {
  if (result.kind === 'failed') {
    return (
      <section className="card result result--failed" aria-label="Payment result">
        <h2 className="result__title">
          <ErrorIcon /> Payment failed
        </h2>
        <p>{result.reason}</p>
        <p className="muted">No money was taken. Choose a plan to try again.</p>
        <button type="button" className="button button--ghost" onClick={onDismiss}>
          Dismiss
        </button>
      </section>
    );
  }
  const { order, user } = result;
  return (
    <section className="card result result--paid" aria-label="Payment result">
      <h2 className="result__title">
        <CheckCircleIcon /> Payment received
      </h2>
      <p>
        Order #{order.id}: {formatPrice(order.amountCents, order.currency)} for the {order.plan} plan.
      </p>
      <p>
        <strong>{describePremium(user)}.</strong> Downloads now work: choose Download in any song&apos;s menu.
      </p>
      <Link to={Paths.songs} className="button button--primary">
        Browse songs
      </Link>
    </section>
  );
}

function OrderHistory() {
  const orders = useQuery(paymentQueries.orders());
  if (!orders.data || orders.data.length === 0) return null;
  return (
    <section className="orders" aria-label="Your orders">
      <h2 className="section-title">Your orders</h2>
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Plan</th>
              <th scope="col">Amount</th>
              <th scope="col">Status</th>
              <th scope="col">Date</th>
            </tr>
          </thead>
          <tbody>
            {orders.data.map((order) => (
              <tr key={order.id}>
                <th scope="row">#{order.id}</th>
                <td>{order.plan}</td>
                <td>{formatPrice(order.amountCents, order.currency)}</td>
                <td>
                  <span className={order.status === 'paid' ? 'badge badge--success' : 'badge'}>{order.status}</span>
                </td>
                <td>{formatDate(order.paidAt ?? order.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** `/dashboard/payment`: plans with server-side prices, the demo checkout and its result, and past orders. */
export function PaymentPage() {
  const user = useCurrentUser();
  const location = useLocation();
  const reason = paymentReasonFrom(location.state);
  const provider = useQuery(paymentQueries.provider());
  const paymentsOff = provider.data?.provider === 'none';
  // Both load at once; the plans show only once the provider is known, so they never flash up on a server without one.
  const plans = useQuery(paymentQueries.plans());
  const showPlans = !provider.isPending && !paymentsOff;
  const checkout = useCheckout();
  const alerts = useAlerts();
  const [order, setOrder] = useState<Order | null>(null);
  const [result, setResult] = useState<Result | null>(null);

  const choose = (plan: Plan): void => {
    setResult(null);
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
      {reason && !mayDownload(user) && (
        <p className="notice" role="note">
          <DownloadIcon size={20} />
          <span>
            {paymentsOff
              ? `Downloading “${reason.songName}” needs Premium.`
              : `Downloading “${reason.songName}” needs Premium. Choose a plan below to keep songs on this device and play them offline.`}
          </span>
        </p>
      )}
      <ul className="benefits">
        {BENEFITS.map((benefit) => (
          <li key={benefit}>
            <CheckCircleIcon size={18} />
            {benefit}
          </li>
        ))}
      </ul>
      {result && (
        <PaymentResult
          result={result}
          onDismiss={() => {
            setResult(null);
          }}
        />
      )}
      {paymentsOff && (
        <p className="notice" role="status" data-testid="payments-off">
          <CrownIcon size={20} />
          <span>{PaymentMessages.paymentsNotSetUp}</span>
        </p>
      )}
      {(provider.isPending || (showPlans && plans.isPending)) && <p className="muted">Loading plans…</p>}
      {showPlans && plans.data && (
        <ul className="plan-grid" aria-label="Plans">
          {plans.data.map((plan) => (
            <li key={plan.id} className="plan card" data-selected={order?.plan === plan.id}>
              <h2 className="plan__name">{plan.name}</h2>
              <p className="plan__price">
                <strong>{formatPrice(plan.amountCents, plan.currency)}</strong> / {period(plan.periodDays)}
              </p>
              <p className="muted">{plan.periodDays} days of Premium, added to any time you have left.</p>
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
      {showPlans && order?.provider === 'demo' && order.status === 'pending' && (
        <DemoCardForm
          key={order.id}
          order={order}
          onPaid={(paid) => {
            setOrder(null);
            setResult({ kind: 'paid', order: paid.order, user: paid.user });
          }}
          onFailed={(failure) => {
            setOrder(null);
            setResult({ kind: 'failed', reason: failure });
          }}
        />
      )}
      <OrderHistory />
    </div>
  );
}
