import { z } from 'zod';
import { textField } from './text.js';

/** Services a listener may send their listens to (issue 28). */
export const SCROBBLE_SERVICES = ['listenbrainz', 'lastfm'] as const;
export type ScrobbleService = (typeof SCROBBLE_SERVICES)[number];

export const ScrobbleMessages = {
  tokenRequired: 'Paste your ListenBrainz user token',
  keyRequired: 'Enter the API key, the shared secret and the session key',
  invalidCredentials: (service: string) => `${service} did not accept these credentials`,
  unreachable: (service: string) => `${service} could not be reached: try again later`,
  notConnected: 'This service is not connected',
} as const;

const Secret = textField().trim().min(1).max(256);

/** PUT /api/scrobbling/listenbrainz: the user token from listenbrainz.org/settings. */
export const ListenBrainzConnect = z.object({ token: Secret.describe('ListenBrainz user token') });
export type ListenBrainzConnect = z.infer<typeof ListenBrainzConnect>;

/** PUT /api/scrobbling/lastfm: an API account's key and secret, and the listener's session key. */
export const LastFmConnect = z.object({ apiKey: Secret, secret: Secret, sessionKey: Secret });
export type LastFmConnect = z.infer<typeof LastFmConnect>;

export const ScrobbleServiceParam = z.object({ service: z.enum(SCROBBLE_SERVICES) });

/** One connected service as its owner sees it (never its secrets). */
export const ScrobbleAccount = z.object({
  service: z.enum(SCROBBLE_SERVICES),
  /** The name the service knows the listener by. */
  remoteName: z.string(),
  /** `attention`: the service refused the credentials; nothing is sent until they are given again. */
  state: z.enum(['ok', 'attention']),
  lastError: z.string().nullable(),
  lastSentAt: z.string().nullable(),
  connectedAt: z.string(),
  /** Listens (and a started song) waiting to be sent. */
  queued: z.number().int(),
});
export type ScrobbleAccount = z.infer<typeof ScrobbleAccount>;

export const ScrobbleAccounts = z.object({ accounts: z.array(ScrobbleAccount) });
export type ScrobbleAccounts = z.infer<typeof ScrobbleAccounts>;
