import { sql, type Kysely } from 'kysely';
import { AdvisoryLocks } from '../../db/advisory-lock.js';
import type { Dialect } from '../../db/database.js';
import { DuplicateError } from '../../db/duplicate-error.js';
import { uniqueViolation } from '../../db/errors.js';
import { containsPattern } from '../../db/like-pattern.js';
import type { DB, NewUserRow, UserRow, UserUpdate } from '../../db/schema.js';

export type UserSortKey = 'username' | 'email' | 'role' | 'premiumUntil' | 'createdAt';

export interface UserListOptions {
  q?: string;
  sort: UserSortKey;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
  /** Keyset paging: only the users after this one in the sort (its sort value and id). */
  after?: { sortKey: string; id: number } | undefined;
}

/** A listed user with its value in the list's sort (the keyset cursor names it). */
export type ListedUserRow = UserRow & { sort_key: string };

export interface UsersRepository {
  findById(id: number): Promise<UserRow | undefined>;
  /** Case-insensitive. */
  findByUsername(username: string): Promise<UserRow | undefined>;
  /** By username (case-insensitive) or by email when the login contains "@". */
  findByLogin(login: string): Promise<UserRow | undefined>;
  usernameTaken(username: string, exceptId?: number): Promise<boolean>;
  emailTaken(email: string, exceptId?: number): Promise<boolean>;
  countAdmins(): Promise<number>;
  /** DuplicateError('email' | 'username') when another account holds either. */
  insert(user: NewUserRow): Promise<UserRow>;
  /** DuplicateError('email' | 'username') when another account holds the new value. */
  update(id: number, patch: UserUpdate): Promise<UserRow | undefined>;
  delete(id: number): Promise<boolean>;
  /** The image keys that go with the user: their profile photo and their playlists' covers. */
  imageKeysOwnedBy(id: number): Promise<string[]>;
  list(options: UserListOptions): Promise<{ rows: ListedUserRow[]; total: number }>;
  /**
   * Runs `work` in a transaction that holds the user-role lock, so "is this the first / last admin?" and the write
   * that depends on it cannot interleave with another such decision. PostgreSQL: a transaction-scoped advisory lock.
   * SQLite: Kysely runs one transaction at a time on the single connection, which already serializes them.
   */
  withRoleLock<T>(work: (users: UsersRepository) => Promise<T>): Promise<T>;
}

/** Each sort's expression (text on both dialects; migration 004 indexes each with the id). */
const SORT_COLUMNS = {
  username: sql<string>`lower(username)`,
  email: sql<string>`email`,
  role: sql<string>`role`,
  // NULLs sort first on both dialects (they disagree on where NULL goes by default).
  premiumUntil: sql<string>`coalesce(premium_until, '')`,
  createdAt: sql<string>`created_at`,
} as const;

/** Another account holds the email or the username (their unique indexes): a DuplicateError naming it. */
function duplicateAccount(error: unknown): never {
  const violated = uniqueViolation(error);
  if (violated?.includes('email')) throw new DuplicateError('email');
  if (violated?.includes('username')) throw new DuplicateError('username');
  throw error;
}

export function createUsersRepository(db: Kysely<DB>, dialect: Dialect): UsersRepository {
  const byUsername = (username: string) =>
    db
      .selectFrom('users')
      .selectAll()
      .where(sql<string>`lower(username)`, '=', username.toLowerCase());

  const repository: UsersRepository = {
    findById(id) {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    findByUsername(username) {
      return byUsername(username).executeTakeFirst();
    },

    findByLogin(login) {
      if (login.includes('@')) {
        return db.selectFrom('users').selectAll().where('email', '=', login.toLowerCase()).executeTakeFirst();
      }
      return byUsername(login).executeTakeFirst();
    },

    async usernameTaken(username, exceptId) {
      let query = db
        .selectFrom('users')
        .select('id')
        .where(sql<string>`lower(username)`, '=', username.toLowerCase());
      if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
      return (await query.executeTakeFirst()) !== undefined;
    },

    async emailTaken(email, exceptId) {
      let query = db.selectFrom('users').select('id').where('email', '=', email.toLowerCase());
      if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
      return (await query.executeTakeFirst()) !== undefined;
    },

    async countAdmins() {
      const row = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('role', '=', 'ADMIN')
        .executeTakeFirstOrThrow();
      return row.count;
    },

    insert(user) {
      return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow().catch(duplicateAccount);
    },

    update(id, patch) {
      return db
        .updateTable('users')
        .set(patch)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst()
        .catch(duplicateAccount);
    },

    async delete(id) {
      const result = await db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async imageKeysOwnedBy(id) {
      const [user, playlists] = await Promise.all([
        db.selectFrom('users').select('image_key').where('id', '=', id).executeTakeFirst(),
        db
          .selectFrom('playlists')
          .select('image_key')
          .where('owner_id', '=', id)
          .where('image_key', 'is not', null)
          .execute(),
      ]);
      return [user?.image_key, ...playlists.map((row) => row.image_key)].filter((key) => typeof key === 'string');
    },

    async list({ q, sort, order, limit, offset, after }) {
      let filtered = db.selectFrom('users');
      if (q !== undefined && q !== '') {
        const pattern = containsPattern(q);
        filtered = filtered.where(
          sql<boolean>`(lower(username) like ${pattern} escape '\\' or email like ${pattern} escape '\\')`,
        );
      }
      const direction = order === 'desc' ? sql`desc` : sql`asc`;
      const sortKey = SORT_COLUMNS[sort];
      let page = filtered.selectAll().select(sortKey.as('sort_key'));
      if (after !== undefined) {
        const [reach, beyond] = order === 'desc' ? [sql`<=`, sql`<`] : [sql`>=`, sql`>`];
        // The first bound alone lets SQLite seek its expression indexes, which it does not do for a row value.
        page = page
          .where(sql<boolean>`${sortKey} ${reach} ${after.sortKey}`)
          .where(sql<boolean>`(${sortKey}, id) ${beyond} (${after.sortKey}, ${after.id})`);
      }
      const [rows, count] = await Promise.all([
        page
          .orderBy(sql`${sortKey} ${direction}`)
          .orderBy('id', order)
          .limit(limit)
          .offset(offset)
          .execute(),
        filtered.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: count.count };
    },

    withRoleLock(work) {
      return db.transaction().execute(async (trx) => {
        if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${AdvisoryLocks.userRoles})`.execute(trx);
        return work(createUsersRepository(trx, dialect));
      });
    },
  };
  return repository;
}
