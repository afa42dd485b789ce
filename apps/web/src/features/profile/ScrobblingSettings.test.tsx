import { fireEvent, screen, within } from '@testing-library/react';
import type { ScrobbleAccount } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, makeUser } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { flush } from '../../test/timers.js';
import { ScrobblingSettings, ScrobblingTexts } from './ScrobblingSettings.js';

const ada = makeUser({ id: 7, username: 'ada' });
const listenBrainz: ScrobbleAccount = {
  service: 'listenbrainz',
  remoteName: 'ada-lb',
  state: 'ok',
  lastError: null,
  lastSentAt: '2026-11-20T10:00:00.000Z',
  connectedAt: '2026-11-01T10:00:00.000Z',
  queued: 2,
};

async function renderSection(routes: Parameters<typeof mockApi>[0]) {
  const api = mockApi(routes);
  const view = renderInApp(<ScrobblingSettings />, { user: ada });
  await flush();
  return { ...view, api, section: screen.getByRole('region', { name: ScrobblingTexts.heading }) };
}

describe('scrobbling in the profile', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows a connected service’s state, and connects another with its three keys', async () => {
    let accounts: ScrobbleAccount[] = [listenBrainz];
    const { api, section, alertMessages } = await renderSection({
      'scrobbling.accounts': () => ({ accounts }),
      'scrobbling.connectLastFm': () => {
        const account: ScrobbleAccount = { ...listenBrainz, service: 'lastfm', remoteName: 'ada-fm', queued: 0 };
        accounts = [...accounts, account];
        return account;
      },
    });
    expect(within(section).getByText(/Connected as ada-lb/)).toHaveTextContent('2 waiting');
    const form = within(section).getByRole('form', { name: ScrobblingTexts.connect('Last.fm') });
    // Nothing sent while a field is empty.
    fireEvent.submit(form);
    await flush();
    expect(api.requests('scrobbling.connectLastFm')).toHaveLength(0);
    fireEvent.change(within(form).getByLabelText(ScrobblingTexts.apiKey), { target: { value: ' key ' } });
    fireEvent.change(within(form).getByLabelText(ScrobblingTexts.secret), { target: { value: 'secret' } });
    fireEvent.change(within(form).getByLabelText(ScrobblingTexts.sessionKey), { target: { value: 'session' } });
    fireEvent.submit(form);
    await flush();
    const [request] = api.requests('scrobbling.connectLastFm');
    expect(await request?.json()).toEqual({ apiKey: 'key', secret: 'secret', sessionKey: 'session' });
    expect(alertMessages()).toContain(ScrobblingTexts.connected('Last.fm'));
    expect(within(section).getByText(/Connected as ada-fm/)).toBeInTheDocument();
    // The secrets are not kept in the form once sent.
    expect(within(form).getByLabelText<HTMLInputElement>(ScrobblingTexts.secret).value).toBe('');
  });

  it('shows the service’s refusal next to the token, and an account that needs attention', async () => {
    const { section } = await renderSection({
      'scrobbling.accounts': () => ({
        accounts: [{ ...listenBrainz, service: 'lastfm', state: 'attention', lastError: '9: Invalid session key' }],
      }),
      'scrobbling.connectListenBrainz': () =>
        errorResponse(400, 'validation-error', 'ListenBrainz did not accept these credentials'),
    });
    expect(within(section).getByRole('alert')).toHaveTextContent('Needs attention');
    expect(within(section).getByRole('alert')).toHaveTextContent('9: Invalid session key');
    const form = within(section).getByRole('form', { name: ScrobblingTexts.connect('ListenBrainz') });
    fireEvent.change(within(form).getByLabelText(ScrobblingTexts.token), { target: { value: 'bad-token' } });
    fireEvent.submit(form);
    await flush();
    expect(within(form).getByText('ListenBrainz did not accept these credentials')).toBeInTheDocument();
  });
});
