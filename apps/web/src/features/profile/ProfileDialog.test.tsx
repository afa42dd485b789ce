import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { endpoints } from '@tonearm/contract';
import { errorResponse, makeUser } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { flush } from '../../test/timers.js';
import { readDataSaver } from '../../lib/data-saver.js';
import { AppStorageKeys } from '../../lib/storage.js';
import { DataSaverTexts } from './DataSaverSetting.js';
import { ProfileDialog, SessionsTexts } from './ProfileDialog.js';

const ada = makeUser({ id: 7, username: 'ada', email: 'ada@example.com' });

function renderProfile(routes: Parameters<typeof mockApi>[0], user = ada) {
  const api = mockApi(routes);
  const onClose = vi.fn();
  const view = renderInApp(<ProfileDialog onClose={onClose} />, { user });
  return { ...view, api, onClose, dialog: screen.getByRole('dialog', { name: 'Your profile' }) };
}

describe('profile', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('uploads a photo as multipart `image`', async () => {
    const withPhoto = { ...ada, image: '/media/images/p.webp' };
    const { api, auth, dialog, alertMessages } = renderProfile({
      'users.updatePhoto': () => withPhoto,
    });
    expect(within(dialog).queryByRole('button', { name: 'Remove photo' })).toBeNull();
    const file = new File(['png'], 'me.png', { type: 'image/png' });
    fireEvent.change(within(dialog).getByLabelText('Profile photo'), { target: { files: [file] } });
    await flush();
    const [request] = api.requests('users.updatePhoto');
    expect(request?.url).toBe('http://localhost/api/users/7/update-photo');
    const form = await request?.formData();
    expect([...(form?.keys() ?? [])]).toEqual(Object.keys(endpoints.users.updatePhoto.form.files));
    expect(auth.replaceUser).toHaveBeenCalledWith(withPhoto);
    expect(alertMessages()).toEqual(['Profile photo updated']);
  });

  it('removes the photo with DELETE /api/users/{id}/remove-photo', async () => {
    const withPhoto = { ...ada, image: '/media/images/p.webp' };
    const { api, auth, dialog } = renderProfile({ 'users.removePhoto': () => ada }, withPhoto);
    expect(dialog.querySelector('img.avatar--photo')?.getAttribute('src')).toBe('/media/images/p.webp?w=300');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove photo' }));
    await flush();
    expect(api.requests('users.removePhoto').map((request) => request.url)).toEqual([
      'http://localhost/api/users/7/remove-photo',
    ]);
    expect(auth.replaceUser).toHaveBeenCalledWith(ada);
  });

  it('saves only the changed account details, checked with the contract first', async () => {
    const { api, auth, dialog, alertMessages } = renderProfile({
      'users.update': async (request) => {
        const { username } = (await request.clone().json()) as { username: string };
        return { ...ada, username };
      },
    });
    const details = within(dialog).getByRole('form', { name: 'Account details' });
    expect(within(details).getByRole<HTMLButtonElement>('button', { name: 'Save changes' }).disabled).toBe(true);
    fireEvent.change(within(details).getByLabelText('Username'), { target: { value: 'a' } });
    fireEvent.click(within(details).getByRole('button', { name: 'Save changes' }));
    expect(within(details).getByText('Username must be at least 3 characters')).toBeInTheDocument();
    expect(api.requests('users.update')).toHaveLength(0);

    fireEvent.change(within(details).getByLabelText('Username'), { target: { value: 'ada_l' } });
    // A new username is a credentials change: the current password is asked for first.
    fireEvent.click(within(details).getByRole('button', { name: 'Save changes' }));
    expect(within(details).getByText('Enter your current password')).toBeInTheDocument();
    expect(api.requests('users.update')).toHaveLength(0);
    fireEvent.change(within(details).getByLabelText('Current password'), { target: { value: 'my-secret' } });
    fireEvent.click(within(details).getByRole('button', { name: 'Save changes' }));
    await flush();
    expect(api.requests('users.update')[0]?.url).toBe('http://localhost/api/users/7');
    expect(await api.requests('users.update')[0]?.json()).toEqual({
      username: 'ada_l',
      currentPassword: 'my-secret',
    });
    expect(auth.replaceUser).toHaveBeenCalledWith({ ...ada, username: 'ada_l' });
    expect(alertMessages()).toEqual(['Profile updated']);
  });

  it('changes the password with the current one, and shows the server’s refusal under its field', async () => {
    const { api, dialog } = renderProfile({
      'users.update': () => errorResponse(400, 'bad-request', 'Current password is incorrect', 'currentPassword'),
    });
    const form = within(dialog).getByRole('form', { name: 'Change password' });
    fireEvent.change(within(form).getByLabelText('Current password'), { target: { value: 'wrong-one' } });
    fireEvent.change(within(form).getByLabelText('New password'), { target: { value: 'a-new-secret' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Change password' }));
    await flush();
    expect(await api.requests('users.update')[0]?.json()).toEqual({
      currentPassword: 'wrong-one',
      password: 'a-new-secret',
    });
    expect(within(form).getByText('Current password is incorrect')).toBeInTheDocument();
  });

  it('asks for the current password only once the username or email changed', () => {
    const { dialog } = renderProfile({});
    const details = within(dialog).getByRole('form', { name: 'Account details' });
    expect(within(details).queryByLabelText('Current password')).toBeNull();
    fireEvent.change(within(details).getByLabelText('Email'), { target: { value: 'ada@elsewhere.org' } });
    expect(within(details).getByLabelText('Current password')).toBeInTheDocument();
  });

  it('deletes the account with the current password, only after confirming, then logs out', async () => {
    const { api, auth, dialog } = renderProfile({
      'users.remove': () => new Response(null, { status: 204 }),
    });
    const form = within(dialog).getByRole('form', { name: 'Delete account' });
    fireEvent.click(within(form).getByRole('button', { name: 'Delete account' }));
    expect(within(form).getByText('Enter your current password')).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    fireEvent.change(within(form).getByLabelText('Current password'), { target: { value: 'my-secret' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Delete account' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(api.requests('users.remove')).toHaveLength(0);
    fireEvent.click(within(form).getByRole('button', { name: 'Delete account' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await flush();
    expect(api.requests('users.remove')[0]?.url).toBe('http://localhost/api/users/7');
    expect(await api.requests('users.remove')[0]?.json()).toEqual({ currentPassword: 'my-secret' });
    expect(auth.logout).toHaveBeenCalledTimes(1);
  });

  it('shows a wrong current password under the field and stays signed in', async () => {
    const { auth, dialog, alertMessages } = renderProfile({
      'users.remove': () => errorResponse(400, 'validation-error', 'Current password is incorrect', 'currentPassword'),
    });
    const form = within(dialog).getByRole('form', { name: 'Delete account' });
    fireEvent.change(within(form).getByLabelText('Current password'), { target: { value: 'wrong' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Delete account' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await flush();
    expect(within(form).getByText('Current password is incorrect')).toBeInTheDocument();
    expect(alertMessages()).toEqual([]);
    expect(auth.logout).not.toHaveBeenCalled();
  });

  it('logs out everywhere, then closes and leaves the dashboard', async () => {
    const { auth, dialog, onClose, alertMessages } = renderProfile({});
    fireEvent.click(within(dialog).getByRole('button', { name: 'Log out everywhere' }));
    await flush();
    expect(auth.logoutEverywhere).toHaveBeenCalledTimes(1);
    expect(auth.logoutEverywhere).toHaveBeenCalledWith({ revokeAppKeys: false });
    expect(onClose).toHaveBeenCalled();
    expect(alertMessages()).toEqual(['You were logged out on every device']);
  });

  it('says that Subsonic apps stay signed in, and offers to revoke their app password and API keys too', async () => {
    const { auth, dialog, onClose, alertMessages } = renderProfile({});
    const sessions = within(dialog).getByRole('region', { name: 'Sessions' });
    expect(within(sessions).getByText(SessionsTexts.appsStay)).toBeInTheDocument();
    expect(SessionsTexts.appsStay).toMatch(/app password or an API key keep working/);
    const revoke = within(sessions).getByRole('checkbox', { name: SessionsTexts.revokeAppKeys });
    expect(revoke).not.toBeChecked();
    fireEvent.click(revoke);
    fireEvent.click(within(sessions).getByRole('button', { name: 'Log out everywhere' }));
    await flush();
    expect(auth.logoutEverywhere).toHaveBeenCalledExactlyOnceWith({ revokeAppKeys: true });
    expect(onClose).toHaveBeenCalled();
    expect(alertMessages()).toEqual([SessionsTexts.loggedOutAndRevoked]);
  });

  it('reports a failed deletion (e.g. the last administrator) and stays signed in', async () => {
    const { auth, dialog, alertMessages } = renderProfile({
      'users.remove': () => errorResponse(409, 'conflict', 'The last administrator cannot be removed or demoted'),
    });
    const form = within(dialog).getByRole('form', { name: 'Delete account' });
    fireEvent.change(within(form).getByLabelText('Current password'), { target: { value: 'my-secret' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Delete account' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await flush();
    expect(alertMessages()).toEqual(['Failed to delete account']);
    expect(auth.logout).not.toHaveBeenCalled();
  });
  it('turns the data saver on and off for this browser (localStorage), and says when the server cannot convert', async () => {
    const { dialog } = renderProfile({
      'media.capabilities': () => ({
        transcoding: false,
        formats: ['opus', 'mp3'],
        bitrateMin: 64,
        bitrateMax: 320,
        bitrateDefault: 128,
      }),
    });
    const toggle = within(dialog).getByRole('checkbox', { name: DataSaverTexts.label });
    expect(toggle).not.toBeChecked();
    fireEvent.click(toggle);
    expect(toggle).toBeChecked();
    expect(readDataSaver()).toBe(true);
    expect(localStorage.getItem(AppStorageKeys.dataSaver)).toBe('true');
    fireEvent.click(toggle);
    expect(readDataSaver()).toBe(false);
    await flush();
    expect(within(dialog).getByText(DataSaverTexts.unavailable)).toBeInTheDocument();
    localStorage.removeItem(AppStorageKeys.dataSaver);
  });

  it('says nothing about conversion when the server transcodes', async () => {
    const { dialog } = renderProfile({
      'media.capabilities': () => ({
        transcoding: true,
        formats: ['opus', 'mp3'],
        bitrateMin: 64,
        bitrateMax: 320,
        bitrateDefault: 128,
      }),
    });
    await flush();
    expect(within(dialog).getByText(DataSaverTexts.hint)).toBeInTheDocument();
    expect(within(dialog).queryByText(DataSaverTexts.unavailable)).toBeNull();
  });
});
