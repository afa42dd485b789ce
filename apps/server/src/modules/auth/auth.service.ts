import {
  ErrorCodes,
  ServerMessages,
  type AuthOptions,
  type LoginRequest,
  type RegisterRequest,
} from '@tonearm/contract';
import type { UserRow } from '../../db/schema.js';
import { HttpError, unauthorized } from '../../http/errors.js';
import type { SessionStore } from '../../sessions/session-store.js';
import { verifyAgainstDummy, verifyPassword } from '../users/password.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { RegistrationContext, UsersService } from '../users/users.service.js';
import type { AppKeysRepository } from './app-keys.repository.js';
import type { LoginAttempts } from './login-attempts.js';

export interface LoginResult {
  user: UserRow;
  token: string;
  expiresAt: Date;
}

/** 429 for an account with too many recent failed sign-ins, with Retry-After. */
function accountLocked(retryAfterSeconds: number): HttpError {
  const error = new HttpError(429, ErrorCodes.rateLimited, ServerMessages.accountLocked);
  error.retryAfterSeconds = retryAfterSeconds;
  return error;
}

export class AuthService {
  constructor(
    private readonly users: UsersRepository,
    private readonly usersService: UsersService,
    private readonly sessions: SessionStore,
    private readonly attempts: LoginAttempts,
    private readonly appKeys: AppKeysRepository,
  ) {}

  register(input: RegisterRequest, context: RegistrationContext): Promise<UserRow> {
    return this.usersService.register(input, context);
  }

  /** What the sign-up form may offer to the browser asking. */
  options(context: RegistrationContext): Promise<AuthOptions> {
    return this.usersService.registrationOptions(context);
  }

  /**
   * Unknown user and wrong password give the same answer after the same amount of hashing work. A successful login
   * replaces the browser's previous session (rotation), so a token planted before login is useless after it.
   */
  async login(input: LoginRequest, previousToken: string | undefined): Promise<LoginResult> {
    const user = await this.users.findByLogin(input.username);
    // Counted per account (by id, so username and email share one count), and per unknown name alike.
    const account = user === undefined ? `name:${input.username.toLowerCase()}` : `user:${user.id}`;
    const start = await this.attempts.begin(account);
    if (!start.allowed) throw accountLocked(start.retryAfterSeconds);
    let valid: boolean;
    try {
      valid =
        user === undefined
          ? await verifyAgainstDummy(input.password)
          : await verifyPassword(user.password_hash, input.password);
    } catch (error) {
      // An error while checking is no failed attempt.
      await this.attempts.giveBack(start.place);
      throw error;
    }
    // A failure keeps the place begin() took: it is counted.
    if (user === undefined || !valid) throw unauthorized(ServerMessages.invalidCredentials);
    await this.attempts.succeeded(start.place);
    if (previousToken !== undefined) await this.sessions.revoke(previousToken);
    const { token, expiresAt } = await this.sessions.create(user.id);
    return { user, token, expiresAt };
  }

  async logout(token: string | undefined): Promise<void> {
    if (token !== undefined) await this.sessions.revoke(token);
  }

  /**
   * Ends every session of the user, the caller's own included (a lost phone, a shared computer left signed in).
   * Subsonic apps do not sign in with sessions: their app password and API keys keep working (see the next one).
   */
  logoutEverywhere(userId: number): Promise<void> {
    return this.sessions.revokeAllOfUser(userId);
  }

  /**
   * logoutEverywhere, and every Subsonic app signed out too: the app password and all API keys are revoked first (one
   * transaction), so a failure leaves the user signed in to try again rather than signed out with the keys still valid.
   */
  async logoutEverywhereWithAppKeys(userId: number): Promise<void> {
    await this.appKeys.revokeAllOfUser(userId);
    await this.sessions.revokeAllOfUser(userId);
  }
}
