import { fireEvent, screen, within } from '@testing-library/react';
import { AccountMessages } from '@tonearm/contract';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { flush } from '../../test/timers.js';
import { RegisterPanel } from './RegisterForm.js';
import { RouterLandingHost } from './RouterLandingHost.js';

function renderPanel(options: { registration: 'open' | 'closed'; becomesAdministrator?: boolean }, route = '/') {
  const api = mockApi({
    'auth.options': () => ({
      registration: options.registration,
      becomesAdministrator: options.becomesAdministrator ?? false,
    }),
  });
  const view = renderInApp(
    <RouterLandingHost>
      <RegisterPanel />
    </RouterLandingHost>,
    { user: null, route },
  );
  return { api, view };
}

function fillAndSubmit() {
  const form = screen.getByRole('form', { name: 'Sign up' });
  fireEvent.change(within(form).getByLabelText('Username'), { target: { value: 'owner' } });
  fireEvent.change(within(form).getByLabelText('Email'), { target: { value: 'owner@example.com' } });
  fireEvent.change(within(form).getByLabelText('Password'), { target: { value: 'a-long-secret' } });
  fireEvent.click(within(form).getByRole('button', { name: 'Sign up' }));
}

describe('sign-up panel', () => {
  beforeAll(async () => {
    // The form fetches its checks on the first submit; loaded here, that import settles within a flush.
    await import('./validate.js');
  });
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the plain form when registration is open', async () => {
    const { view } = renderPanel({ registration: 'open' });
    await flush();
    expect(screen.getByRole('form', { name: 'Sign up' })).toBeInTheDocument();
    expect(screen.queryByTestId('will-administer')).toBeNull();
    fillAndSubmit();
    await flush();
    expect(view.auth.register).toHaveBeenCalledWith({
      username: 'owner',
      email: 'owner@example.com',
      password: 'a-long-secret',
    });
  });

  it('says registration is closed instead of showing the form', async () => {
    renderPanel({ registration: 'closed' });
    await flush();
    expect(screen.getByTestId('registration-closed').textContent).toBe(AccountMessages.registrationClosed);
    expect(screen.queryByRole('form', { name: 'Sign up' })).toBeNull();
  });

  it('takes the setup code from ?setup=, says the account will administer the server and sends the code', async () => {
    const { view } = renderPanel({ registration: 'closed' }, '/?setup=Ab_12-cd');
    await flush();
    expect(screen.getByTestId('will-administer').textContent).toBe(AccountMessages.willAdminister);
    fillAndSubmit();
    await flush();
    expect(view.auth.register).toHaveBeenCalledWith({
      username: 'owner',
      email: 'owner@example.com',
      password: 'a-long-secret',
      setupCode: 'Ab_12-cd',
    });
  });

  it('on the server’s own machine with no administrator yet, says so even when registration is closed', async () => {
    renderPanel({ registration: 'closed', becomesAdministrator: true });
    await flush();
    expect(screen.getByRole('form', { name: 'Sign up' })).toBeInTheDocument();
    expect(screen.getByTestId('will-administer')).toBeInTheDocument();
  });
});
