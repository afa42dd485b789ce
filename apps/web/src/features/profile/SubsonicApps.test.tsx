import { fireEvent, screen, within } from '@testing-library/react';
import type { ApiKey } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, makeUser } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { flush } from '../../test/timers.js';
import { SubsonicApps, SubsonicTexts } from './SubsonicApps.js';

const ada = makeUser({ id: 7, username: 'ada' });
const PASSWORD = 'abcd-efgh-ijkm-npqr-stuv-wxyz';
const phone: ApiKey = { id: 3, name: 'Phone', createdAt: '2026-01-02T10:00:00.000Z', lastUsedAt: null };

async function renderSection(routes: Parameters<typeof mockApi>[0]) {
  const api = mockApi(routes);
  const view = renderInApp(<SubsonicApps user={ada} />, { user: ada });
  await flush();
  return { ...view, api, section: screen.getByRole('region', { name: SubsonicTexts.heading }) };
}

const noContent = () => new Response(null, { status: 204 });

describe('Subsonic apps in the profile', () => {
  let writeText: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    vi.useFakeTimers();
    writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  });
  afterEach(() => {
    vi.useRealTimers();
    Reflect.deleteProperty(navigator, 'clipboard');
  });

  it('shows what to enter in an app: this server’s address and the username', async () => {
    const { section } = await renderSection({
      'appPassword.status': () => ({ exists: false }),
      'apiKeys.list': () => ({ apiKeys: [] }),
    });
    expect(within(section).getByText(window.location.origin)).toBeInTheDocument();
    expect(within(section).getByText('ada')).toBeInTheDocument();
    expect(within(section).getByText(SubsonicTexts.noAppPassword)).toBeInTheDocument();
    expect(within(section).getByText(SubsonicTexts.noApiKeys)).toBeInTheDocument();
  });

  it('generates an app password and shows it once, with a copy button and the warning', async () => {
    const { api, section, alertMessages } = await renderSection({
      'appPassword.status': () => ({ exists: false }),
      'appPassword.create': () => ({ password: PASSWORD }),
      'apiKeys.list': () => ({ apiKeys: [] }),
    });
    expect(within(section).queryByLabelText(SubsonicTexts.newPassword)).toBeNull();
    fireEvent.click(within(section).getByRole('button', { name: SubsonicTexts.generate }));
    await flush();
    expect(api.requests('appPassword.create').map((request) => request.url)).toEqual([
      'http://localhost/api/users/7/subsonic-password',
    ]);
    const shown = within(section).getByLabelText<HTMLInputElement>(SubsonicTexts.newPassword);
    expect(shown.value).toBe(PASSWORD);
    expect(shown.readOnly).toBe(true);
    expect(within(section).getByText(SubsonicTexts.shownOnce)).toBeInTheDocument();
    expect(alertMessages()).toEqual([SubsonicTexts.appPasswordGenerated]);
    fireEvent.click(within(section).getByRole('button', { name: SubsonicTexts.copy }));
    await flush();
    expect(writeText).toHaveBeenCalledWith(PASSWORD);
    // Now there is one: the next one replaces it, after a confirmation.
    expect(within(section).getByText(SubsonicTexts.appPasswordSet)).toBeInTheDocument();
    fireEvent.click(within(section).getByRole('button', { name: SubsonicTexts.replace }));
    expect(screen.getByRole('alertdialog')).toHaveTextContent(SubsonicTexts.confirmReplace);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(api.requests('appPassword.create')).toHaveLength(1);
  });

  it('never shows a password it was not just given (a reload shows only that one exists)', async () => {
    const { section } = await renderSection({
      'appPassword.status': () => ({ exists: true }),
      'apiKeys.list': () => ({ apiKeys: [] }),
    });
    expect(within(section).getByText(SubsonicTexts.appPasswordSet)).toBeInTheDocument();
    expect(within(section).queryByLabelText(SubsonicTexts.newPassword)).toBeNull();
    expect(within(section).getByRole('button', { name: SubsonicTexts.replace })).toBeInTheDocument();
  });

  it('revokes the app password after confirming', async () => {
    let exists = true;
    const { api, section, alertMessages } = await renderSection({
      'appPassword.status': () => ({ exists }),
      'appPassword.revoke': () => {
        exists = false;
        return noContent();
      },
      'apiKeys.list': () => ({ apiKeys: [] }),
    });
    fireEvent.click(within(section).getByRole('button', { name: SubsonicTexts.revoke }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await flush();
    expect(api.requests('appPassword.revoke').map((request) => `${request.method} ${request.url}`)).toEqual([
      'DELETE http://localhost/api/users/7/subsonic-password',
    ]);
    expect(alertMessages()).toEqual([SubsonicTexts.appPasswordRevoked]);
    expect(within(section).getByText(SubsonicTexts.noAppPassword)).toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: SubsonicTexts.revoke })).toBeNull();
  });

  it('reports a failed generation and shows no password', async () => {
    const { section, alertMessages } = await renderSection({
      'appPassword.status': () => ({ exists: false }),
      'appPassword.create': () => errorResponse(500, 'internal-error', 'Something went wrong on our side.'),
      'apiKeys.list': () => ({ apiKeys: [] }),
    });
    fireEvent.click(within(section).getByRole('button', { name: SubsonicTexts.generate }));
    await flush();
    expect(alertMessages()).toEqual([SubsonicTexts.failedAppPassword]);
    expect(within(section).queryByLabelText(SubsonicTexts.newPassword)).toBeNull();
  });

  it('lists API keys with when they were made and used, creates one by name (shown once), revokes one', async () => {
    let keys: ApiKey[] = [phone];
    const { api, section, alertMessages } = await renderSection({
      'appPassword.status': () => ({ exists: false }),
      'apiKeys.list': () => ({ apiKeys: keys }),
      'apiKeys.create': () => {
        keys = [...keys, { id: 4, name: 'Desk', createdAt: '2026-02-03T10:00:00.000Z', lastUsedAt: null }];
        return { id: 4, name: 'Desk', key: 'k'.repeat(43) };
      },
      'apiKeys.revoke': () => {
        keys = keys.filter((key) => key.id !== phone.id);
        return noContent();
      },
    });
    const list = within(section).getByRole('list', { name: SubsonicTexts.apiKeys });
    expect(within(list).getByText('Phone')).toBeInTheDocument();
    expect(list).toHaveTextContent(`${SubsonicTexts.lastUsed} ${SubsonicTexts.never}`);

    const form = within(section).getByRole('form', { name: 'New API key' });
    fireEvent.click(within(form).getByRole('button', { name: SubsonicTexts.createKey }));
    expect(within(form).getByText('Enter a name of 1 to 100 characters')).toBeInTheDocument();
    expect(api.requests('apiKeys.create')).toHaveLength(0);
    fireEvent.change(within(form).getByLabelText(SubsonicTexts.keyName), { target: { value: ' Desk ' } });
    fireEvent.click(within(form).getByRole('button', { name: SubsonicTexts.createKey }));
    await flush();
    const [request] = api.requests('apiKeys.create');
    expect(request?.url).toBe('http://localhost/api/users/7/api-keys');
    expect(await request?.json()).toEqual({ name: 'Desk' });
    expect(within(section).getByLabelText<HTMLInputElement>(SubsonicTexts.newKey('Desk')).value).toBe('k'.repeat(43));
    expect(within(list).getByText('Desk')).toBeInTheDocument();
    expect(alertMessages()).toEqual([SubsonicTexts.apiKeyCreated]);

    fireEvent.click(within(list).getByRole('button', { name: SubsonicTexts.revokeKey('Phone') }));
    expect(screen.getByRole('alertdialog')).toHaveTextContent(SubsonicTexts.confirmRevokeKey('Phone'));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await flush();
    expect(api.requests('apiKeys.revoke').map((revoke) => `${revoke.method} ${revoke.url}`)).toEqual([
      'DELETE http://localhost/api/users/7/api-keys/3',
    ]);
    expect(within(list).queryByText('Phone')).toBeNull();
    expect(alertMessages()).toContain(SubsonicTexts.apiKeyRevoked);
  });
});
