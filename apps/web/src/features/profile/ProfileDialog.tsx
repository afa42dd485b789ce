import { AccountMessages, UpdateUserRequest, type User } from '@tonearm/contract';
import { useState, type ChangeEvent, type SubmitEvent } from 'react';
import { useNavigate } from 'react-router';
import { describeError, isApiError } from '../../lib/api-client.js';
import { fieldErrorsOf, type FieldErrors } from '../../lib/field-errors.js';
import { Paths } from '../../lib/paths.js';
import { describePremium } from '../../lib/premium.js';
import { UiMessages } from '../../lib/ui-messages.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import { useAuth } from '../../shell/auth/useAuth.js';
import { useConfirm } from '../../shell/confirm/useConfirm.js';
import { Avatar } from '../../ui/Avatar.js';
import { Dialog } from '../../ui/Dialog.js';
import { CameraIcon, LogoutIcon, TrashIcon } from '../../ui/icons.js';
import { TextField } from '../../ui/TextField.js';
import { useDeleteUser, useRemovePhoto, useUpdateUser, useUploadPhoto } from '../users/mutations.js';
import { DataSaverSetting } from './DataSaverSetting.js';
import { ScrobblingSettings } from './ScrobblingSettings.js';
import { SubsonicApps } from './SubsonicApps.js';
import '../../ui/buttons.css';
import '../../ui/forms.css';
import './ProfileDialog.css';

/** A server error that names one of `fields` goes under that field; anything else is an alert. */
function serverFieldError<K extends string>(error: unknown, fields: readonly K[]): FieldErrors<K> | null {
  if (!isApiError(error) || error.field === undefined || !fields.includes(error.field as K)) return null;
  return { [error.field]: error.message } as FieldErrors<K>;
}

function PhotoSection({ user }: { user: User }) {
  const upload = useUploadPhoto();
  const remove = useRemovePhoto();
  const alerts = useAlerts();
  const busy = upload.isPending || remove.isPending;
  const onFile = (event: ChangeEvent<HTMLInputElement>): void => {
    const image = event.target.files?.[0];
    event.target.value = '';
    if (!image) return;
    upload.mutate(
      { userId: user.id, image },
      {
        onSuccess: () => {
          alerts.success(UiMessages.photoUpdated);
        },
        onError: (error) => {
          alerts.error(UiMessages.failedToUpdatePhoto, describeError(error));
        },
      },
    );
  };
  return (
    <section className="profile__photo" aria-label="Photo">
      <Avatar user={user} size="lg" />
      <div className="profile__photo-actions">
        <label className="button button--ghost button--small file-button">
          <CameraIcon size={18} />
          {upload.isPending ? 'Uploading…' : user.image ? 'Change photo' : 'Upload photo'}
          <input
            type="file"
            className="visually-hidden"
            aria-label="Profile photo"
            accept="image/jpeg,image/png,image/webp"
            disabled={busy}
            onChange={onFile}
          />
        </label>
        {user.image && (
          <button
            type="button"
            className="button button--ghost button--small"
            disabled={busy}
            onClick={() => {
              remove.mutate(user.id, {
                onSuccess: () => {
                  alerts.success(UiMessages.photoRemoved);
                },
                onError: (error) => {
                  alerts.error(UiMessages.failedToUpdatePhoto, describeError(error));
                },
              });
            }}
          >
            Remove photo
          </button>
        )}
        <p className="muted profile__plan">
          {user.role === 'ADMIN' ? 'Administrator' : describePremium(user)} · {user.email}
        </p>
      </div>
    </section>
  );
}

type DetailField = 'username' | 'email' | 'currentPassword';

/** Username and email are credentials: changing either asks for the current password (the server checks it). */
function DetailsForm({ user }: { user: User }) {
  const [values, setValues] = useState({ username: user.username, email: user.email });
  const [currentPassword, setCurrentPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors<DetailField>>({});
  const update = useUpdateUser();
  const alerts = useAlerts();
  const changed = {
    ...(values.username.trim() !== user.username ? { username: values.username } : {}),
    ...(values.email.trim().toLowerCase() !== user.email ? { email: values.email } : {}),
  };
  const dirty = Object.keys(changed).length > 0;
  const onSubmit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const parsed = UpdateUserRequest.safeParse({ ...changed, currentPassword });
    const found = fieldErrorsOf<DetailField>(parsed);
    if (currentPassword === '') found.currentPassword = AccountMessages.enterCurrentPassword;
    setErrors(found);
    if (!parsed.success || !dirty || Object.keys(found).length > 0) return;
    update.mutate(
      { userId: user.id, changes: parsed.data },
      {
        onSuccess: () => {
          setCurrentPassword('');
          alerts.success(UiMessages.profileUpdated);
        },
        onError: (error) => {
          const fieldError = serverFieldError(error, ['username', 'email', 'currentPassword'] as const);
          if (fieldError) setErrors(fieldError);
          else alerts.error(UiMessages.failedToUpdateProfile, describeError(error));
        },
      },
    );
  };
  return (
    <form className="form" aria-label="Account details" noValidate onSubmit={onSubmit}>
      <h3 className="profile__heading">Account details</h3>
      <TextField
        label="Username"
        error={errors.username}
        name="username"
        autoComplete="username"
        value={values.username}
        onValue={(value) => {
          setValues({ ...values, username: value });
        }}
      />
      <TextField
        label="Email"
        error={errors.email}
        name="email"
        type="email"
        autoComplete="email"
        value={values.email}
        onValue={(value) => {
          setValues({ ...values, email: value });
        }}
      />
      {dirty && (
        <CurrentPasswordField
          value={currentPassword}
          onChange={setCurrentPassword}
          error={errors.currentPassword}
          hint="Needed to change username or email"
        />
      )}
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={update.isPending || !dirty}>
          {update.isPending ? 'Saving…' : 'Save changes'}
        </button>
      </div>
    </form>
  );
}

type PasswordField = 'currentPassword' | 'password';

function PasswordForm({ user }: { user: User }) {
  const [values, setValues] = useState({ currentPassword: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors<PasswordField>>({});
  const update = useUpdateUser();
  const alerts = useAlerts();
  const onSubmit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const parsed = UpdateUserRequest.safeParse(values);
    const found = fieldErrorsOf<PasswordField>(parsed);
    if (values.currentPassword === '') found.currentPassword = AccountMessages.enterCurrentPassword;
    setErrors(found);
    if (!parsed.success || Object.keys(found).length > 0) return;
    update.mutate(
      { userId: user.id, changes: parsed.data },
      {
        onSuccess: () => {
          setValues({ currentPassword: '', password: '' });
          alerts.success(UiMessages.passwordChanged);
        },
        onError: (error) => {
          const fieldError = serverFieldError(error, ['currentPassword', 'password'] as const);
          if (fieldError) setErrors(fieldError);
          else alerts.error(UiMessages.failedToChangePassword, describeError(error));
        },
      },
    );
  };
  const field = (name: PasswordField, label: string, autoComplete: string) => (
    <TextField
      label={label}
      error={errors[name]}
      name={name}
      type="password"
      autoComplete={autoComplete}
      value={values[name]}
      onValue={(value) => {
        setValues({ ...values, [name]: value });
      }}
    />
  );
  return (
    <form className="form" aria-label="Change password" noValidate onSubmit={onSubmit}>
      <h3 className="profile__heading">Change password</h3>
      <input type="text" name="username" autoComplete="username" value={user.username} readOnly hidden />
      {field('currentPassword', 'Current password', 'current-password')}
      {field('password', 'New password', 'new-password')}
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={update.isPending}>
          {update.isPending ? 'Changing…' : 'Change password'}
        </button>
      </div>
    </form>
  );
}

/** Deleting one's own account asks for the current password, then for confirmation. */
function DeleteAccount({ user, onDeleted }: { user: User; onDeleted: () => void }) {
  const remove = useDeleteUser();
  const confirm = useConfirm();
  const alerts = useAlerts();
  const [currentPassword, setCurrentPassword] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const onSubmit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (currentPassword === '') {
      setError(AccountMessages.enterCurrentPassword);
      return;
    }
    setError(undefined);
    confirm({
      message: UiMessages.confirmDeleteAccount,
      onConfirm: () => {
        remove.mutate(
          { userId: user.id, currentPassword },
          {
            onSuccess: () => {
              alerts.success(UiMessages.accountDeleted);
              onDeleted();
            },
            onError: (failure) => {
              const fieldError = serverFieldError(failure, ['currentPassword'] as const);
              if (fieldError) setError(fieldError.currentPassword);
              else alerts.error(UiMessages.failedToDeleteAccount, describeError(failure));
            },
          },
        );
      },
    });
  };
  return (
    <form className="form profile__danger" aria-label="Delete account" noValidate onSubmit={onSubmit}>
      <h3 className="profile__heading">Delete account</h3>
      <p className="muted">Your playlists, likes and listening history are removed. Downloads on this device stay.</p>
      <input type="text" name="username" autoComplete="username" value={user.username} readOnly hidden />
      <CurrentPasswordField value={currentPassword} onChange={setCurrentPassword} error={error} />
      <div className="form__actions">
        <button type="submit" className="button button--danger" disabled={remove.isPending}>
          <TrashIcon size={18} /> Delete account
        </button>
      </div>
    </form>
  );
}

export const SessionsTexts = {
  intro: 'Signed in somewhere you should not be? This logs you out on every device, this one too.',
  appsStay:
    'Subsonic apps do not use sessions: apps signed in with your app password or an API key keep working unless you revoke those too.',
  revokeAppKeys: 'Also revoke the app password and all API keys (every Subsonic app is signed out)',
  loggedOutAndRevoked: 'You were logged out on every device, and your app password and API keys were revoked',
} as const;

/**
 * Ends every session of the account: other browsers and phones, and this one. Subsonic apps sign in with the app
 * password or an API key, not a session: they stay signed in unless the box is ticked.
 */
function LogOutEverywhere({ onDone }: { onDone: () => void }) {
  const { logoutEverywhere } = useAuth();
  const alerts = useAlerts();
  const [busy, setBusy] = useState(false);
  const [revokeAppKeys, setRevokeAppKeys] = useState(false);
  return (
    <section className="profile__sessions" aria-label="Sessions">
      <h3 className="profile__heading">Sessions</h3>
      <p className="muted">{SessionsTexts.intro}</p>
      <p className="muted">{SessionsTexts.appsStay}</p>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={revokeAppKeys}
          disabled={busy}
          onChange={(event) => {
            setRevokeAppKeys(event.target.checked);
          }}
        />
        <span>{SessionsTexts.revokeAppKeys}</span>
      </label>
      <button
        type="button"
        className="button button--ghost"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          logoutEverywhere({ revokeAppKeys }).then(
            () => {
              alerts.success(revokeAppKeys ? SessionsTexts.loggedOutAndRevoked : AccountMessages.loggedOutEverywhere);
              onDone();
            },
            (error: unknown) => {
              setBusy(false);
              alerts.error(AccountMessages.failedToLogOutEverywhere, describeError(error));
            },
          );
        }}
      >
        <LogoutIcon size={18} /> Log out everywhere
      </button>
    </section>
  );
}

/**
 * The signed-in user's profile: photo, username and email, password, data saver, what Subsonic apps sign in with, and
 * deleting the account.
 */
export function ProfileDialog({ onClose }: { onClose: () => void }) {
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  if (!user) return null;
  return (
    <Dialog title="Your profile" onClose={onClose}>
      <div className="profile">
        <PhotoSection user={user} />
        <DetailsForm user={user} />
        <PasswordForm user={user} />
        <DataSaverSetting />
        <SubsonicApps user={user} />
        <ScrobblingSettings />
        <LogOutEverywhere
          onDone={() => {
            onClose();
            void navigate(Paths.home, { replace: true });
          }}
        />
        <DeleteAccount
          user={user}
          onDeleted={() => {
            onClose();
            void logout().then(() => navigate(Paths.home, { replace: true }));
          }}
        />
      </div>
    </Dialog>
  );
}

/** The current password, asked before a change of credentials or the deletion of the account. */
function CurrentPasswordField({
  value,
  onChange,
  error,
  hint,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  hint?: string;
}) {
  return (
    <TextField
      label="Current password"
      error={error}
      hint={hint}
      name="currentPassword"
      type="password"
      autoComplete="current-password"
      value={value}
      onValue={onChange}
    />
  );
}
