import { fireEvent, screen, within } from '@testing-library/react';
import { PaymentMessages, type Order, type Plan } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, makeUser } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { flush } from '../../test/timers.js';
import { premiumRequiredState } from './payment-reason.js';
import { PaymentPage } from './PaymentPage.js';

const plans: Plan[] = [
  { id: 'monthly', name: 'Premium monthly', amountCents: 499, currency: 'EUR', periodDays: 30 },
  { id: 'yearly', name: 'Premium yearly', amountCents: 4990, currency: 'EUR', periodDays: 365 },
];
const order: Order = {
  id: 9,
  plan: 'monthly',
  amountCents: 499,
  currency: 'EUR',
  provider: 'demo',
  status: 'pending',
  createdAt: '2030-01-01T00:00:00.000Z',
  paidAt: null,
};
const upgraded = makeUser({ premium: true, premiumUntil: '2031-02-03T12:00:00.000Z' });

function fillCard(number: string) {
  const form = screen.getByRole('form', { name: 'Pay with a test card' });
  fireEvent.change(within(form).getByLabelText('Card number'), { target: { value: number } });
  fireEvent.change(within(form).getByLabelText('Expiry (MM/YY)'), { target: { value: '12/39' } });
  fireEvent.change(within(form).getByLabelText('CVC'), { target: { value: '123' } });
  fireEvent.click(within(form).getByRole('button', { name: 'Pay now' }));
}

describe('/dashboard/payment', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('explains why a download led here, then pays with the demo card and shows premium at once', async () => {
    const api = mockApi({
      'payments.provider': () => ({ provider: 'demo' }),
      'payments.plans': () => plans,
      'payments.orders': () => [],
      'payments.checkout': () => ({ order, redirectUrl: null }),
      'payments.payDemo': () => ({ order: { ...order, status: 'paid', paidAt: order.createdAt }, user: upgraded }),
    });
    const view = renderInApp(<PaymentPage />, {
      route: { pathname: '/dashboard/payment', state: premiumRequiredState('Night Ferry') },
    });
    await flush();
    expect(screen.getByRole('note').textContent).toContain('Downloading “Night Ferry” needs Premium.');
    expect(screen.getByTestId('premium-status').textContent).toBe('You are on the free plan.');

    fireEvent.click(screen.getByRole('button', { name: 'Choose Premium monthly' }));
    await flush();
    expect(await api.requests('payments.checkout')[0]?.json()).toEqual({ plan: 'monthly' });
    fillCard('4242 4242 4242 4242');
    await flush();
    expect(api.requests('payments.payDemo')[0]?.url).toBe('http://localhost/api/payment/demo/9/pay');
    expect(await api.requests('payments.payDemo')[0]?.json()).toEqual({
      cardNumber: '4242424242424242',
      expiry: '12/39',
      cvc: '123',
    });
    expect(view.auth.replaceUser).toHaveBeenCalledWith(upgraded);
    const result = screen.getByRole('region', { name: 'Payment result' });
    expect(result.textContent).toContain('Payment received');
    expect(result.textContent).toMatch(/Premium until .*2031/);
    expect(screen.queryByRole('form', { name: 'Pay with a test card' })).toBeNull();
  });

  it('shows a declined payment as the result and keeps the user on the free plan', async () => {
    mockApi({
      'payments.provider': () => ({ provider: 'demo' }),
      'payments.plans': () => plans,
      'payments.orders': () => [],
      'payments.checkout': () => ({ order, redirectUrl: null }),
      'payments.payDemo': () => errorResponse(402, 'payment-declined', 'Your card was declined. No payment was taken.'),
    });
    const view = renderInApp(<PaymentPage />, { route: '/dashboard/payment' });
    await flush();
    expect(screen.queryByRole('note')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Choose Premium monthly' }));
    await flush();
    fillCard('4000000000000002');
    await flush();
    const result = screen.getByRole('region', { name: 'Payment result' });
    expect(result.textContent).toContain('Payment failed');
    expect(result.textContent).toContain('Your card was declined. No payment was taken.');
    expect(view.auth.replaceUser).not.toHaveBeenCalled();
    // Said once: the result, not a red alert with the same words as well.
    expect(view.alertMessages()).toEqual([]);
  });

  it('checks the card fields before sending anything', async () => {
    const api = mockApi({
      'payments.provider': () => ({ provider: 'demo' }),
      'payments.plans': () => plans,
      'payments.orders': () => [],
      'payments.checkout': () => ({ order, redirectUrl: null }),
    });
    renderInApp(<PaymentPage />, { route: '/dashboard/payment' });
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Choose Premium yearly' }));
    await flush();
    fillCard('12');
    await flush();
    expect(screen.getByText('Enter a valid card number')).toBeInTheDocument();
    expect(api.requests('payments.payDemo')).toHaveLength(0);
  });

  it('says plainly that payments are not set up when the server runs no provider, and offers no checkout', async () => {
    const api = mockApi({
      'payments.provider': () => ({ provider: 'none' }),
      'payments.plans': () => plans,
      'payments.orders': () => [],
    });
    renderInApp(<PaymentPage />, {
      route: { pathname: '/dashboard/payment', state: premiumRequiredState('Night Ferry') },
    });
    await flush();
    expect(screen.getByTestId('payments-off').textContent).toBe(PaymentMessages.paymentsNotSetUp);
    expect(PaymentMessages.paymentsNotSetUp).toMatch(/not set up on this server.*Ask an administrator/);
    expect(screen.getByRole('note').textContent).toBe('Downloading “Night Ferry” needs Premium.');
    expect(screen.queryByRole('list', { name: 'Plans' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Choose / })).toBeNull();
    expect(screen.queryByText('Loading plans…')).toBeNull();
    expect(api.requests('payments.checkout')).toHaveLength(0);
  });

  it('shows the plans, without the not-set-up notice, for Stripe and for a server that does not say', async () => {
    for (const answer of [
      () => ({ provider: 'stripe' as const }),
      () => errorResponse(404, 'not-found', 'Not found'),
    ]) {
      mockApi({
        'payments.provider': answer,
        'payments.plans': () => plans,
        'payments.orders': () => [],
      });
      const view = renderInApp(<PaymentPage />, { route: '/dashboard/payment' });
      await flush();
      expect(screen.getAllByRole('button', { name: /^Choose / })).toHaveLength(2);
      expect(screen.queryByTestId('payments-off')).toBeNull();
      view.unmount();
    }
  });
});
