import { LastFmConnect, ListenBrainzConnect, type ScrobbleAccount, type ScrobbleService } from '@tonearm/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';
import { describeError } from '../../lib/api-client.js';
import { formatDate } from '../../lib/premium.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import { useConfirm } from '../../shell/confirm/useConfirm.js';
import { TextField } from '../../ui/TextField.js';
import { useConnectScrobbling, useDisconnectScrobbling } from './mutations.js';
import { scrobblingQueries } from './queries.js';

const LABELS: Record<ScrobbleService, string> = { listenbrainz: 'ListenBrainz', lastfm: 'Last.fm' };

export const ScrobblingTexts = {
  heading: 'Scrobbling',
  intro:
    'Send what you listen to ListenBrainz or Last.fm: each song once it counts (half of it, or 4 minutes), and what you are playing now. Only your own listens, from now on.',
  connectedAs: (name: string) => `Connected as ${name}`,
  lastSent: (date: string) => `last sent ${date}`,
  waiting: (count: number) => `${String(count)} waiting`,
  attention: 'Needs attention: connect again with valid credentials',
  connect: (service: string) => `Connect ${service}`,
  reconnect: (service: string) => `Connect ${service} again`,
  disconnect: (service: string) => `Disconnect ${service}`,
  confirmDisconnect: (service: string) => `Disconnect ${service}? Listens not sent yet will not be sent.`,
  connected: (service: string) => `${service} connected`,
  disconnected: (service: string) => `${service} disconnected`,
  failed: (service: string) => `Could not connect ${service}`,
  token: 'User token',
  tokenHint: 'From listenbrainz.org/settings',
  apiKey: 'API key',
  secret: 'Shared secret',
  sessionKey: 'Session key',
  lastFmHint: 'From your Last.fm API account, and the session key of your Last.fm login',
  failedToLoad: 'Could not load this. Please try again later.',
} as const;

function AccountState({ account }: { account: ScrobbleAccount }) {
  const label = LABELS[account.service];
  const disconnect = useDisconnectScrobbling();
  const confirm = useConfirm();
  const alerts = useAlerts();
  const details = [
    ScrobblingTexts.connectedAs(account.remoteName),
    ...(account.lastSentAt === null ? [] : [ScrobblingTexts.lastSent(formatDate(account.lastSentAt))]),
    ...(account.queued > 0 ? [ScrobblingTexts.waiting(account.queued)] : []),
  ];
  return (
    <div className="scrobbling__state">
      <p className="muted">{details.join(' · ')}</p>
      {account.state === 'attention' && (
        <p className="scrobbling__attention" role="alert">
          {ScrobblingTexts.attention}
          {account.lastError === null ? '' : ` (${account.lastError})`}
        </p>
      )}
      {account.state === 'ok' && account.lastError !== null && <p className="muted">{account.lastError}</p>}
      <button
        type="button"
        className="button button--ghost button--small"
        disabled={disconnect.isPending}
        onClick={() => {
          confirm({
            message: ScrobblingTexts.confirmDisconnect(label),
            onConfirm: () => {
              disconnect.mutate(account.service, {
                onSuccess: () => {
                  alerts.success(ScrobblingTexts.disconnected(label));
                },
                onError: (error) => {
                  alerts.error(ScrobblingTexts.failed(label), describeError(error));
                },
              });
            },
          });
        }}
      >
        {ScrobblingTexts.disconnect(label)}
      </button>
    </div>
  );
}

/** A credential typed or pasted: hidden as typed, never completed, spell-checked or kept by the browser. */
function SecretField(props: {
  label: string;
  name: string;
  value: string;
  onValue: (value: string) => void;
  error?: string | undefined;
  hint?: string;
}) {
  return <TextField {...props} type="password" autoComplete="off" spellCheck={false} />;
}

/** One service: its state when connected, and the form that connects it (again). */
function ServiceForm({ service, account }: { service: ScrobbleService; account: ScrobbleAccount | undefined }) {
  const label = LABELS[service];
  const connect = useConnectScrobbling();
  const alerts = useAlerts();
  const [token, setToken] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [secret, setSecret] = useState('');
  const [sessionKey, setSessionKey] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);

  const onSubmit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const parsed =
      service === 'listenbrainz'
        ? ListenBrainzConnect.safeParse({ token })
        : LastFmConnect.safeParse({ apiKey, secret, sessionKey });
    if (!parsed.success) {
      setError(service === 'listenbrainz' ? 'Paste your ListenBrainz user token' : 'Fill in all three fields');
      return;
    }
    setError(undefined);
    const request =
      service === 'listenbrainz'
        ? { service, body: { token: token.trim() } }
        : { service, body: { apiKey: apiKey.trim(), secret: secret.trim(), sessionKey: sessionKey.trim() } };
    connect.mutate(request, {
      onSuccess: () => {
        setToken('');
        setApiKey('');
        setSecret('');
        setSessionKey('');
        alerts.success(ScrobblingTexts.connected(label));
      },
      onError: (failure) => {
        setError(describeError(failure));
      },
    });
  };

  return (
    <div className="subsonic__part">
      <h4 className="subsonic__subheading">{label}</h4>
      {account !== undefined && <AccountState account={account} />}
      <form className="scrobbling__form" aria-label={ScrobblingTexts.connect(label)} noValidate onSubmit={onSubmit}>
        {service === 'listenbrainz' ? (
          <SecretField
            label={ScrobblingTexts.token}
            hint={ScrobblingTexts.tokenHint}
            error={error}
            name="listenBrainzToken"
            value={token}
            onValue={setToken}
          />
        ) : (
          <>
            <p className="muted">{ScrobblingTexts.lastFmHint}</p>
            <SecretField label={ScrobblingTexts.apiKey} name="lastFmApiKey" value={apiKey} onValue={setApiKey} />
            <SecretField label={ScrobblingTexts.secret} name="lastFmSecret" value={secret} onValue={setSecret} />
            <SecretField
              label={ScrobblingTexts.sessionKey}
              error={error}
              name="lastFmSessionKey"
              value={sessionKey}
              onValue={setSessionKey}
            />
          </>
        )}
        <div className="form__actions">
          <button type="submit" className="button button--ghost button--small" disabled={connect.isPending}>
            {account === undefined ? ScrobblingTexts.connect(label) : ScrobblingTexts.reconnect(label)}
          </button>
        </div>
      </form>
    </div>
  );
}

/** The profile's scrobbling section (issue 28): each service's state and the form that connects it. */
export function ScrobblingSettings() {
  const accounts = useQuery(scrobblingQueries.accounts());
  const of = (service: ScrobbleService) => accounts.data?.accounts.find((account) => account.service === service);
  return (
    <section className="profile__scrobbling" aria-label={ScrobblingTexts.heading}>
      <h3 className="profile__heading">{ScrobblingTexts.heading}</h3>
      <p className="muted">{ScrobblingTexts.intro}</p>
      {accounts.isError && <p className="muted">{ScrobblingTexts.failedToLoad}</p>}
      {accounts.isSuccess && (
        <>
          <ServiceForm service="listenbrainz" account={of('listenbrainz')} />
          <ServiceForm service="lastfm" account={of('lastfm')} />
        </>
      )}
    </section>
  );
}
