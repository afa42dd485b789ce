import { API_KEY_NAME_MAX, CreateApiKeyRequest, type ApiKey, type User } from '@tonearm/contract';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type SubmitEvent } from 'react';
import { describeError } from '../../lib/api-client.js';
import { formatDate } from '../../lib/premium.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import { useConfirm } from '../../shell/confirm/useConfirm.js';
import { TextField } from '../../ui/TextField.js';
import { useCreateApiKey, useGenerateAppPassword, useRevokeApiKey, useRevokeAppPassword } from './mutations.js';
import { subsonicQueries } from './queries.js';

export const SubsonicTexts = {
  heading: 'Subsonic apps',
  intro:
    'Listen in Subsonic apps on your phone or desktop (Symfonium, DSub, Ultrasonic, Tempo, substreamer, Feishin, Supersonic, Sonixd…). Enter the server address and your username, then the app password below: your login password does not work in apps.',
  serverAddress: 'Server address',
  username: 'Username',
  appPassword: 'App password',
  appPasswordSet: 'You have an app password. Apps that use it keep working until you replace or revoke it.',
  noAppPassword: 'No app password yet.',
  generate: 'Generate app password',
  replace: 'Replace app password',
  revoke: 'Revoke app password',
  confirmReplace:
    'Replace the app password? Apps signed in with the current one stop working until you enter the new one.',
  confirmRevoke: 'Revoke the app password? Apps signed in with it stop working.',
  newPassword: 'Your new app password',
  shownOnce: 'Copy it now: it will not be shown again.',
  apiKeys: 'API keys',
  apiKeysIntro: 'For apps that support OpenSubsonic API keys: a key replaces both username and password.',
  noApiKeys: 'No API keys yet.',
  keyName: 'Key name',
  keyNameHint: 'Which app or device it is for, e.g. “Phone”',
  createKey: 'Create key',
  newKey: (name: string) => `Your new API key “${name}”`,
  revokeKey: (name: string) => `Revoke ${name}`,
  confirmRevokeKey: (name: string) => `Revoke the API key “${name}”? Apps that use it stop working.`,
  created: 'Created',
  lastUsed: 'Last used',
  never: 'never',
  copy: 'Copy',
  copied: 'Copied to the clipboard',
  copyFailed: 'Could not copy: select the text and copy it yourself',
  appPasswordGenerated: 'App password generated',
  appPasswordRevoked: 'App password revoked',
  failedAppPassword: 'Failed to change the app password',
  apiKeyCreated: 'API key created',
  apiKeyRevoked: 'API key revoked',
  failedApiKey: 'Failed to change the API keys',
  failedToLoad: 'Could not load this. Please try again later.',
} as const;

/** A secret shown once, read-only, with a copy button and the warning that it will not be shown again. */
function ShownOnce({ label, value }: { label: string; value: string }) {
  const alerts = useAlerts();
  const id = useId();
  const copy = (): void => {
    const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
    if (clipboard === undefined) {
      alerts.error(SubsonicTexts.copyFailed);
      return;
    }
    clipboard.writeText(value).then(
      () => {
        alerts.success(SubsonicTexts.copied);
      },
      () => {
        alerts.error(SubsonicTexts.copyFailed);
      },
    );
  };
  return (
    <div className="subsonic__secret">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <div className="subsonic__secret-row">
        <input
          id={id}
          className="input subsonic__code"
          readOnly
          value={value}
          aria-describedby={`${id}-note`}
          onFocus={(event) => {
            event.target.select();
          }}
        />
        <button type="button" className="button button--ghost button--small" onClick={copy}>
          {SubsonicTexts.copy}
        </button>
      </div>
      <p id={`${id}-note`} className="subsonic__once">
        {SubsonicTexts.shownOnce}
      </p>
    </div>
  );
}

function AppPassword({ user }: { user: User }) {
  const status = useQuery(subsonicQueries.appPassword(user.id));
  const generate = useGenerateAppPassword();
  const revoke = useRevokeAppPassword();
  const confirm = useConfirm();
  const alerts = useAlerts();
  const [shown, setShown] = useState<string | null>(null);
  const busy = generate.isPending || revoke.isPending;
  const exists = status.data?.exists === true;

  const onGenerate = (): void => {
    generate.mutate(user.id, {
      onSuccess: ({ password }) => {
        setShown(password);
        alerts.success(SubsonicTexts.appPasswordGenerated);
      },
      onError: (error) => {
        alerts.error(SubsonicTexts.failedAppPassword, describeError(error));
      },
    });
  };

  return (
    <div className="subsonic__part">
      <h4 className="subsonic__subheading">{SubsonicTexts.appPassword}</h4>
      {status.isError ? (
        <p className="muted">{SubsonicTexts.failedToLoad}</p>
      ) : (
        status.isSuccess && (
          <p className="muted">{exists ? SubsonicTexts.appPasswordSet : SubsonicTexts.noAppPassword}</p>
        )
      )}
      {shown !== null && <ShownOnce label={SubsonicTexts.newPassword} value={shown} />}
      <div className="subsonic__actions">
        <button
          type="button"
          className="button button--primary button--small"
          disabled={busy || !status.isSuccess}
          onClick={() => {
            if (exists) confirm({ message: SubsonicTexts.confirmReplace, onConfirm: onGenerate });
            else onGenerate();
          }}
        >
          {exists ? SubsonicTexts.replace : SubsonicTexts.generate}
        </button>
        {exists && (
          <button
            type="button"
            className="button button--ghost button--small"
            disabled={busy}
            onClick={() => {
              confirm({
                message: SubsonicTexts.confirmRevoke,
                onConfirm: () => {
                  revoke.mutate(user.id, {
                    onSuccess: () => {
                      setShown(null);
                      alerts.success(SubsonicTexts.appPasswordRevoked);
                    },
                    onError: (error) => {
                      alerts.error(SubsonicTexts.failedAppPassword, describeError(error));
                    },
                  });
                },
              });
            }}
          >
            {SubsonicTexts.revoke}
          </button>
        )}
      </div>
    </div>
  );
}

function ApiKeyItem({ user, apiKey }: { user: User; apiKey: ApiKey }) {
  const revoke = useRevokeApiKey();
  const confirm = useConfirm();
  const alerts = useAlerts();
  return (
    <li className="subsonic__key">
      <div className="subsonic__key-text">
        <span className="subsonic__key-name">{apiKey.name}</span>
        <span className="muted">
          {SubsonicTexts.created} {formatDate(apiKey.createdAt)} · {SubsonicTexts.lastUsed}{' '}
          {apiKey.lastUsedAt === null ? SubsonicTexts.never : formatDate(apiKey.lastUsedAt)}
        </span>
      </div>
      <button
        type="button"
        className="button button--ghost button--small"
        aria-label={SubsonicTexts.revokeKey(apiKey.name)}
        disabled={revoke.isPending}
        onClick={() => {
          confirm({
            message: SubsonicTexts.confirmRevokeKey(apiKey.name),
            onConfirm: () => {
              revoke.mutate(
                { userId: user.id, keyId: apiKey.id },
                {
                  onSuccess: () => {
                    alerts.success(SubsonicTexts.apiKeyRevoked);
                  },
                  onError: (error) => {
                    alerts.error(SubsonicTexts.failedApiKey, describeError(error));
                  },
                },
              );
            },
          });
        }}
      >
        Revoke
      </button>
    </li>
  );
}

function ApiKeys({ user }: { user: User }) {
  const keys = useQuery(subsonicQueries.apiKeys(user.id));
  const create = useCreateApiKey();
  const alerts = useAlerts();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [shown, setShown] = useState<{ name: string; key: string } | null>(null);

  const onSubmit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const parsed = CreateApiKeyRequest.safeParse({ name });
    if (!parsed.success) {
      setError(`Enter a name of 1 to ${API_KEY_NAME_MAX} characters`);
      return;
    }
    setError(undefined);
    create.mutate(
      { userId: user.id, name: parsed.data.name },
      {
        onSuccess: (created) => {
          setShown({ name: created.name, key: created.key });
          setName('');
          alerts.success(SubsonicTexts.apiKeyCreated);
        },
        onError: (failure) => {
          alerts.error(SubsonicTexts.failedApiKey, describeError(failure));
        },
      },
    );
  };

  return (
    <div className="subsonic__part">
      <h4 className="subsonic__subheading">{SubsonicTexts.apiKeys}</h4>
      <p className="muted">{SubsonicTexts.apiKeysIntro}</p>
      {keys.isError && <p className="muted">{SubsonicTexts.failedToLoad}</p>}
      {keys.isSuccess &&
        (keys.data.length === 0 ? (
          <p className="muted">{SubsonicTexts.noApiKeys}</p>
        ) : (
          <ul className="subsonic__keys" aria-label={SubsonicTexts.apiKeys}>
            {keys.data.map((apiKey) => (
              <ApiKeyItem key={apiKey.id} user={user} apiKey={apiKey} />
            ))}
          </ul>
        ))}
      {shown !== null && <ShownOnce label={SubsonicTexts.newKey(shown.name)} value={shown.key} />}
      <form className="subsonic__new-key" aria-label="New API key" noValidate onSubmit={onSubmit}>
        <TextField
          label={SubsonicTexts.keyName}
          hint={SubsonicTexts.keyNameHint}
          error={error}
          name="apiKeyName"
          autoComplete="off"
          maxLength={API_KEY_NAME_MAX}
          value={name}
          onValue={setName}
        />
        <div className="form__actions">
          <button type="submit" className="button button--ghost button--small" disabled={create.isPending}>
            {SubsonicTexts.createKey}
          </button>
        </div>
      </form>
    </div>
  );
}

/**
 * What to enter in a Subsonic app (issue 13): the server address (this page's origin), the username, and the app
 * password or an API key, each generated here and shown once.
 */
export function SubsonicApps({ user }: { user: User }) {
  return (
    <section className="profile__sessions subsonic" aria-label={SubsonicTexts.heading}>
      <h3 className="profile__heading">{SubsonicTexts.heading}</h3>
      <p className="muted">{SubsonicTexts.intro}</p>
      <dl className="subsonic__facts">
        <dt>{SubsonicTexts.serverAddress}</dt>
        <dd>
          <code className="subsonic__code">{window.location.origin}</code>
        </dd>
        <dt>{SubsonicTexts.username}</dt>
        <dd>
          <code className="subsonic__code">{user.username}</code>
        </dd>
      </dl>
      <AppPassword user={user} />
      <ApiKeys user={user} />
    </section>
  );
}
