import {
  AccountMessages,
  DbId,
  ErrorCodes,
  type AuthOptions,
  isAdmin,
  mayManageUser,
  ServerMessages,
  type CreateUserRequest,
  type RegisterRequest,
  type UpdateUserRequest,
  type UserListQuery,
} from '@tonearm/contract';
import { z } from 'zod';
import { isDuplicate } from '../../db/duplicate-error.js';
import type { NewUserRow, RoleValue, UserRow, UserUpdate } from '../../db/schema.js';
import { isoNow } from '../../db/timestamps.js';
import { HttpError, badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import { cursorCodec, keysetPage } from '../../http/page-cursor.js';
import type { BlobReleaser } from '../../maintenance/blob-release.js';
import type { SessionStore } from '../../sessions/session-store.js';
import type { SetupCode } from '../../setup-code.js';
import { hashPassword, verifyPassword } from './password.js';
import type { UsersRepository } from './users.repository.js';

/** Who is asking. */
export type Actor = Pick<UserRow, 'id' | 'username' | 'role'>;

export const USER_LIST_DEFAULT_LIMIT = 100;

/** The longest sort value a user cursor names (an email). */
const SORT_KEY_MAX = 254;

/** [the sort's value, id] of the last user of a page. */
const userCursors = cursorCodec('users', z.tuple([z.string().max(SORT_KEY_MAX), DbId]));

/** A page of the user list. */
export interface UserListPage {
  rows: UserRow[];
  total: number;
  nextCursor: string | null;
}

/** premium_until of an indefinite grant (an admin's "premium: true"). */
export const PREMIUM_FOREVER = '9999-12-31T23:59:59.999Z';

function found<T>(value: T | undefined): T {
  if (value === undefined) throw notFound(ServerMessages.notFound);
  return value;
}

/** Maps a unique-constraint race (two writers passing the pre-check together) to the same 409 the check gives. */
function rethrowUserConflict(error: unknown): never {
  if (isDuplicate(error, 'email')) throw conflict(ServerMessages.emailTaken, 'email');
  if (isDuplicate(error, 'username')) throw conflict(ServerMessages.usernameTaken, 'username');
  throw error;
}

async function assertAvailable(
  users: UsersRepository,
  fields: { username?: string; email?: string },
  exceptId?: number,
): Promise<void> {
  if (fields.username !== undefined && (await users.usernameTaken(fields.username, exceptId))) {
    throw conflict(ServerMessages.usernameTaken, 'username');
  }
  if (fields.email !== undefined && (await users.emailTaken(fields.email, exceptId))) {
    throw conflict(ServerMessages.emailTaken, 'email');
  }
}

function premiumUntilFrom(input: UpdateUserRequest): string | null | undefined {
  // An explicit date wins over the on/off switch when both are sent.
  if (input.premiumUntil !== undefined) {
    return input.premiumUntil === null ? null : new Date(input.premiumUntil).toISOString();
  }
  if (input.premium !== undefined) return input.premium ? PREMIUM_FOREVER : null;
  return undefined;
}

/** Where a registration comes from, as far as claiming the server goes. */
export interface RegistrationContext {
  /** From the machine itself (loopback, not through an untrusted proxy). */
  local: boolean;
}

export interface AccountPolicy {
  registration: 'open' | 'closed';
  /** The server's one-time setup code. */
  setupCode: SetupCode;
}

const registrationClosed = () => new HttpError(403, ErrorCodes.registrationClosed, AccountMessages.registrationClosed);
const invalidSetupCode = () =>
  new HttpError(403, ErrorCodes.invalidSetupCode, AccountMessages.invalidSetupCode, 'setupCode');

/** Self acting on credentials (username, email, password, deletion) proves it knows the current password. */
async function assertCurrentPassword(user: UserRow, currentPassword: string | undefined): Promise<void> {
  const current = currentPassword ?? '';
  if (current === '' || !(await verifyPassword(user.password_hash, current))) {
    throw badRequest(ServerMessages.wrongCurrentPassword, 'currentPassword');
  }
}

export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionStore,
    private readonly policy: AccountPolicy,
    /** Deletes images no row uses any more, once the change that dropped them is committed. */
    private readonly releaseBlobs: BlobReleaser = () => Promise.resolve(),
    /**
     * Told once who the administrators are has changed (an administrator made, demoted or deleted), after the change
     * is committed: the libraries hand their playlists from files to an administrator (LibrariesService). Must not
     * throw.
     */
    private readonly administratorsChanged: () => Promise<void> = () => Promise.resolve(),
  ) {}

  /** Self or admin; to anyone else another account does not exist (404, as for a missing one). */
  async getById(actor: Actor, id: number): Promise<UserRow> {
    if (!mayManageUser(actor, id)) throw notFound(ServerMessages.notFound);
    return found(await this.users.findById(id));
  }

  async getByUsername(actor: Actor, username: string): Promise<UserRow> {
    const self = actor.username.toLowerCase() === username.toLowerCase();
    if (!self && !isAdmin(actor)) throw notFound(ServerMessages.notFound);
    return found(await this.users.findByUsername(username));
  }

  /**
   * GET /api/users: one page in the chosen sort. `cursor` (the previous page's nextCursor, for the same sort, order
   * and q) continues after that page's last user; `offset` still skips rows, after the cursor when both are given.
   */
  async list(query: UserListQuery): Promise<UserListPage> {
    const sort = query.sort ?? 'username';
    const order = query.order ?? 'asc';
    const limit = query.limit ?? USER_LIST_DEFAULT_LIMIT;
    const scope = [sort, order, query.q ?? ''];
    const after = userCursors.decode(scope, query.cursor);
    const { rows, total } = await this.users.list({
      ...(query.q === undefined ? {} : { q: query.q }),
      sort,
      order,
      limit: limit + 1,
      offset: query.offset ?? 0,
      after: after && { sortKey: after[0], id: after[1] },
    });
    const page = keysetPage(rows, limit, (row) => userCursors.encode(scope, [row.sort_key, row.id]));
    return { rows: page.rows, total, nextCursor: page.nextCursor };
  }

  /**
   * Self: profile fields; a new username, email or password only together with the correct current password (an admin
   * acting on their own account too). Admin on another account: anything, including role and premium, and a password
   * reset, without the old password. A password change ends every other session of that user.
   */
  async update(actor: Actor, id: number, input: UpdateUserRequest, actorToken?: string): Promise<UserRow> {
    const self = actor.id === id;
    if (!mayManageUser(actor, id)) throw notFound(ServerMessages.notFound);
    const privileged = input.role !== undefined || input.premium !== undefined || input.premiumUntil !== undefined;
    if (privileged && !isAdmin(actor)) throw forbidden(ServerMessages.onlyAdminChangesRole);

    const target = found(await this.users.findById(id));

    // Sending the present username or email again (a client that posts the whole profile) changes nothing.
    const credentialsChange =
      input.password !== undefined ||
      (input.username !== undefined && input.username !== target.username) ||
      (input.email !== undefined && input.email.toLowerCase() !== target.email);
    if (self && credentialsChange) await assertCurrentPassword(target, input.currentPassword);

    const patch: UserUpdate = {};
    if (input.password !== undefined) patch.password_hash = await hashPassword(input.password);
    if (input.username !== undefined) patch.username = input.username;
    if (input.email !== undefined) patch.email = input.email.toLowerCase();
    if (input.gender !== undefined) patch.gender = input.gender;
    if (input.address !== undefined) patch.address = input.address;
    if (input.role !== undefined) patch.role = input.role;
    const premiumUntil = premiumUntilFrom(input);
    if (premiumUntil !== undefined) patch.premium_until = premiumUntil;
    if (Object.keys(patch).length === 0) return target;

    const updated = await this.users
      .withRoleLock(async (users) => {
        await assertAvailable(users, { username: patch.username, email: patch.email }, id);
        const current = found(await users.findById(id));
        if (current.role === 'ADMIN' && patch.role === 'USER' && (await users.countAdmins()) <= 1) {
          throw conflict(ServerMessages.lastAdmin, 'role');
        }
        const roleChanged = patch.role !== undefined && patch.role !== current.role;
        return { user: found(await users.update(id, patch)), roleChanged };
      })
      .catch(rethrowUserConflict);

    if (patch.password_hash !== undefined) await this.sessions.revokeAllOfUser(id, self ? actorToken : undefined);
    if (updated.roleChanged) await this.administratorsChanged();
    return updated.user;
  }

  /**
   * Self (with the current password) or admin; never the last administrator. The user's sessions, likes, plays and
   * playlists go with it, and their profile photo and playlist covers (with thumbnails) are deleted at once, unless
   * another row still shows them.
   */
  async remove(actor: Actor, id: number, currentPassword?: string): Promise<void> {
    if (!mayManageUser(actor, id)) throw notFound(ServerMessages.notFound);
    if (actor.id === id) await assertCurrentPassword(found(await this.users.findById(id)), currentPassword);
    const { images, wasAdmin } = await this.users.withRoleLock(async (users) => {
      const target = found(await users.findById(id));
      if (target.role === 'ADMIN' && (await users.countAdmins()) <= 1) throw conflict(ServerMessages.lastAdmin);
      const keys = await users.imageKeysOwnedBy(id);
      await users.delete(id);
      return { images: keys, wasAdmin: target.role === 'ADMIN' };
    });
    this.sessions.forgetUser(id);
    await this.releaseBlobs({ image: images });
    if (wasAdmin) await this.administratorsChanged();
  }

  /**
   * Registration. While the server has no administrator, the account becomes its administrator when registered from
   * the machine itself or with the one-time setup code (which is then used up); otherwise it is a plain USER. A wrong
   * setup code, or one sent once an administrator exists, is refused. With REGISTRATION=closed only such a claim gets
   * through. Decided under the role lock, a database lock, so racing registrations make at most one administrator
   * even when they reach different instances of the server.
   */
  async register(input: RegisterRequest, context: RegistrationContext): Promise<UserRow> {
    const { setupCode } = this.policy;
    const claimsWithCode = input.setupCode !== undefined;
    if (input.setupCode !== undefined && !setupCode.matches(input.setupCode)) throw invalidSetupCode();
    if (this.policy.registration === 'closed' && !claimsWithCode && !context.local) throw registrationClosed();
    const passwordHash = await hashPassword(input.password);
    const user = await this.users
      .withRoleLock(async (users) => {
        const unclaimed = (await users.countAdmins()) === 0;
        if (claimsWithCode && !unclaimed) throw invalidSetupCode();
        const claims = unclaimed && (claimsWithCode || context.local);
        if (!claims && this.policy.registration === 'closed') throw registrationClosed();
        await assertAvailable(users, input);
        return users.insert(newUserRow(input, passwordHash, claims ? 'ADMIN' : 'USER'));
      })
      .catch(rethrowUserConflict);
    if (user.role === 'ADMIN') {
      setupCode.consume();
      // The first administrator: the playlists of MUSIC_DIR's library, waiting for an owner, are made now.
      await this.administratorsChanged();
    }
    return user;
  }

  /** Whether sign-up is open, and whether an account registered now from `context` would claim the server. */
  async registrationOptions(context: RegistrationContext): Promise<AuthOptions> {
    const becomesAdministrator = context.local && (await this.users.countAdmins()) === 0;
    return { registration: this.policy.registration, becomesAdministrator };
  }

  /** POST /api/users: an administrator creates an account, with the checks of registration and any role. */
  async create(input: CreateUserRequest): Promise<UserRow> {
    const passwordHash = await hashPassword(input.password);
    return this.users
      .withRoleLock(async (users) => {
        await assertAvailable(users, input);
        return users.insert(newUserRow(input, passwordHash, input.role ?? 'USER'));
      })
      .catch(rethrowUserConflict);
  }
}

function newUserRow(
  input: { username: string; email: string; gender?: string | undefined; address?: string | undefined },
  passwordHash: string,
  role: RoleValue,
): NewUserRow {
  return {
    username: input.username,
    email: input.email.toLowerCase(),
    password_hash: passwordHash,
    gender: input.gender ?? null,
    address: input.address ?? null,
    role,
    premium_until: null,
    image_key: null,
    subsonic_secret: null,
    created_at: isoNow(),
  };
}
