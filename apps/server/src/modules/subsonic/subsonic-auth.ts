import { ServerMessages, SubsonicErrorCodes, SubsonicMessages } from '@tonearm/contract';
import type { CounterStore } from '../../counters/counter-store.js';
import { LoginAttempts, LOGIN_FAILURE_WINDOW_MS, type AttemptPlace } from '../auth/login-attempts.js';
import type { ApiKeysService } from './api-keys.service.js';
import type { AppPasswordsService } from './app-passwords.service.js';
import { subsonicFail as fail, type SubsonicIdentity } from './subsonic-method.js';
import type { SubsonicParams } from './subsonic-params.js';
import { SubsonicError, SubsonicRateLimited } from './subsonic.response.js';

/** The per-address count runs over a minute, like the web login's per-address limit (AUTH_RATE_LIMIT a minute). */
const ADDRESS_WINDOW_MS = 60_000;

/** The web login's two limits, as Subsonic credentials are held to them (issue 13). */
export interface CredentialLimits {
  /** Failed sign-ins per account: AUTH_ACCOUNT_LIMIT in 15 minutes. */
  readonly accounts: LoginAttempts;
  /** Failed sign-ins per client address: AUTH_RATE_LIMIT a minute. */
  readonly addresses: LoginAttempts;
}

/** Both limits, counted in `counters` (the app's: shared by every instance on PostgreSQL). */
export function credentialLimits(
  config: { loginFailuresPerAccount: number; authRateLimitPerMinute: number },
  counters: CounterStore,
): CredentialLimits {
  return {
    accounts: new LoginAttempts(counters, 'subsonic-account', config.loginFailuresPerAccount, LOGIN_FAILURE_WINDOW_MS),
    addresses: new LoginAttempts(counters, 'subsonic-address', config.authRateLimitPerMinute, ADDRESS_WINDOW_MS),
  };
}

/** The failures the limits count: wrong credentials and unknown API keys (not malformed calls nor refusals). */
function isFailedSignIn(error: unknown): boolean {
  return (
    error instanceof SubsonicError &&
    (error.code === SubsonicErrorCodes.wrongCredentials || error.code === SubsonicErrorCodes.invalidApiKey)
  );
}

/** `enc:` + hex of the UTF-8 password (Subsonic's light obfuscation of `p`); anything else is the password as it is. */
function decodePassword(p: string): string | null {
  if (!p.startsWith('enc:')) return p;
  const hex = p.slice(4);
  if (hex.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(hex)) return null;
  return Buffer.from(hex, 'hex').toString('utf8');
}

/**
 * Who a Subsonic call comes from: an API key (`apiKey`, OpenSubsonic apiKeyAuthentication), the app password
 * (`u`+`p`, plain or `enc:`), or its md5 token (`u`+`t`+`s`). The account's login password is never accepted: it is
 * stored as an argon2 hash, and apps keep what they are given in clear.
 *
 * Failed attempts count as the web login's do: per client address (AUTH_RATE_LIMIT a minute, every kind of credential)
 * and per account (AUTH_ACCOUNT_LIMIT in 15 minutes, keyed as the web login keys it). Past either, the call is refused
 * with HTTP 429, even with the right credentials. The counts are Subsonic's own, so that an app left with a revoked
 * password does not lock its owner out of the web app.
 */
export class SubsonicAuth {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly appPasswords: AppPasswordsService,
    private readonly limits: CredentialLimits,
  ) {}

  async authenticate(params: SubsonicParams, address: string): Promise<SubsonicIdentity> {
    const key = params.get('apiKey');
    // Named at all, even empty (`u=`): an API key comes alone.
    const legacy = ['u', 'p', 't', 's'].some((name) => params.given(name));
    if (key !== undefined && legacy) throw fail('conflictingAuth', SubsonicMessages.conflictingAuth);
    if (key === undefined) this.checkShape(params);

    const { addresses } = this.limits;
    // The place is taken before the check, so calls sent at once cannot all pass before one fails.
    const start = await addresses.begin(`ip:${address}`);
    if (!start.allowed) throw new SubsonicRateLimited(ServerMessages.rateLimited, start.retryAfterSeconds);
    return this.keepingFailures(addresses, start.place, () => this.check(params, key));
  }

  /**
   * Runs `check`; its place in `limits` stays taken only when it fails as a sign-in (isFailedSignIn). On success
   * `succeeded` runs instead of giving the place back (by default it gives it back).
   */
  private async keepingFailures(
    limits: LoginAttempts,
    place: AttemptPlace,
    check: () => Promise<SubsonicIdentity>,
    succeeded: () => Promise<void> = () => limits.giveBack(place),
  ): Promise<SubsonicIdentity> {
    let caller: SubsonicIdentity;
    try {
      caller = await check();
    } catch (error) {
      if (!isFailedSignIn(error)) await limits.giveBack(place);
      throw error;
    }
    await succeeded();
    return caller;
  }

  private async check(params: SubsonicParams, key: string | undefined): Promise<SubsonicIdentity> {
    const { accounts } = this.limits;
    if (key !== undefined) {
      const user = await this.apiKeys.userOfKey(key);
      if (user === null) throw fail('invalidApiKey', SubsonicMessages.invalidApiKey);
      return { user, via: 'apiKey' };
    }

    const username = params.get('u') ?? '';
    const user = await this.appPasswords.findUser(username);
    // Keyed as the web login keys its count: by id when the account exists, by the lower-cased name otherwise.
    const start = await accounts.begin(user === undefined ? `name:${username.toLowerCase()}` : `user:${user.id}`);
    if (!start.allowed) throw new SubsonicRateLimited(ServerMessages.accountLocked, start.retryAfterSeconds);
    // The right credentials clear the account's failures, as a web sign-in does.
    return this.keepingFailures(
      accounts,
      start.place,
      () => this.checkAppPassword(params, user),
      () => accounts.succeeded(start.place),
    );
  }

  private async checkAppPassword(
    params: SubsonicParams,
    user: Awaited<ReturnType<AppPasswordsService['findUser']>>,
  ): Promise<SubsonicIdentity> {
    const token = params.get('t');
    const password = params.get('p');
    const via = token === undefined ? 'password' : 'token';
    let valid = false;
    if (user !== undefined) {
      if (token !== undefined) valid = await this.appPasswords.checkToken(user, token, params.get('s') ?? '');
      else {
        const plain = decodePassword(password ?? '');
        valid = plain !== null && (await this.appPasswords.checkPassword(user, plain));
      }
    }
    if (user === undefined || !valid) throw fail('wrongCredentials', SubsonicMessages.wrongCredentials);
    return { user, via };
  }

  /** u with p, or u with t and s; anything else is a malformed request (no attempt at a password, not counted). */
  private checkShape(params: SubsonicParams): void {
    if (!params.has('u')) throw fail('missingParameter', SubsonicMessages.missingAuth);
    if (params.has('p') && (params.has('t') || params.has('s'))) {
      throw fail('conflictingAuth', SubsonicMessages.passwordWithToken);
    }
    if (params.has('t') && !params.has('s')) throw fail('missingParameter', SubsonicMessages.missingParameter('s'));
    if (!params.has('t') && !params.has('p')) throw fail('missingParameter', SubsonicMessages.missingParameter('p'));
  }
}
