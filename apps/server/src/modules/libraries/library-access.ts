import type { Kysely } from 'kysely';
import type { DB, RoleValue } from '../../db/schema.js';

/** How long a process trusts its list of the libraries not seen by everyone (another instance's change shows within it). */
const RESTRICTED_TTL_MS = 1_000;
/** userSees answers kept at most (cleared whole beyond). */
const ANSWERS_KEPT = 10_000;

/** Who asks: an administrator sees every library; anyone else, the everyone-libraries and those they are a member of. */
export interface LibraryViewer {
  id: number;
  role: RoleValue;
}

/** Who sees a library: everyone, or the members listed (administrators always). */
export interface LibraryAudience {
  everyone: boolean;
  memberIds: number[];
}

/** Who sees a library, with the members' names (the Library answer). */
export interface LibraryAudienceView {
  everyone: boolean;
  members: { id: number; username: string }[];
}

/** The SQL of library visibility (migration 020). */
export function createLibraryAccessRepository(db: Kysely<DB>) {
  return {
    /** The libraries not seen by everyone. */
    async restricted(): Promise<number[]> {
      const rows = await db.selectFrom('libraries').select('id').where('everyone', '=', 0).orderBy('id').execute();
      return rows.map((row) => row.id);
    },

    /** Which of these libraries the user is a member of. */
    async memberOf(userId: number, libraryIds: readonly number[]): Promise<number[]> {
      if (libraryIds.length === 0) return [];
      const rows = await db
        .selectFrom('library_members')
        .select('library_id')
        .where('user_id', '=', userId)
        .where('library_id', 'in', libraryIds)
        .execute();
      return rows.map((row) => row.library_id);
    },

    /** Whether the user is an administrator or a member of the library. */
    async adminOrMember(userId: number, libraryId: number): Promise<boolean> {
      const row = await db
        .selectFrom('users')
        .select('users.id')
        .where('users.id', '=', userId)
        .where((eb) =>
          eb.or([
            eb('users.role', '=', 'ADMIN'),
            eb.exists(
              eb
                .selectFrom('library_members')
                .select('library_members.user_id')
                .whereRef('library_members.user_id', '=', 'users.id')
                .where('library_members.library_id', '=', libraryId),
            ),
          ]),
        )
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Every library's audience, by library id. */
    async audiences(): Promise<Map<number, LibraryAudienceView>> {
      const [libraries, members] = await Promise.all([
        db.selectFrom('libraries').select(['id', 'everyone']).execute(),
        db
          .selectFrom('library_members')
          .innerJoin('users', 'users.id', 'library_members.user_id')
          .select(['library_members.library_id', 'users.id', 'users.username'])
          .orderBy('users.id')
          .execute(),
      ]);
      const audiences = new Map<number, LibraryAudienceView>(
        libraries.map((row) => [row.id, { everyone: row.everyone === 1, members: [] }]),
      );
      for (const { library_id, id, username } of members) audiences.get(library_id)?.members.push({ id, username });
      return audiences;
    },

    /** How many of these user ids name no user. */
    async unknownUsers(userIds: readonly number[]): Promise<number> {
      if (userIds.length === 0) return 0;
      const row = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('id', 'in', userIds)
        .executeTakeFirstOrThrow();
      return userIds.length - Number(row.count);
    },

    /** Sets who sees the library, in one transaction. */
    async setAudience(libraryId: number, audience: LibraryAudience): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('libraries')
          .set({ everyone: audience.everyone ? 1 : 0 })
          .where('id', '=', libraryId)
          .execute();
        await trx.deleteFrom('library_members').where('library_id', '=', libraryId).execute();
        if (audience.memberIds.length > 0) {
          await trx
            .insertInto('library_members')
            .values(audience.memberIds.map((userId) => ({ library_id: libraryId, user_id: userId })))
            .execute();
        }
      });
    },
  };
}

export type LibraryAccessRepository = ReturnType<typeof createLibraryAccessRepository>;

/**
 * Which libraries a user may not see (issue 25): every list, search, album, artist, stream and download leaves their
 * songs out, and a song of theirs answers 404 like one that does not exist. The usual answer is "none" (every library
 * seen by everyone), found without a query per request: the list of libraries not seen by everyone is kept for a
 * second (RESTRICTED_TTL_MS); only while there are such libraries does a non-administrator's request read their
 * memberships. Built once per app (composition root).
 */
export class LibraryAccess {
  private restricted: { ids: readonly number[]; at: number } | null = null;
  private loading: Promise<readonly number[]> | null = null;
  /** userSees' recent answers, by "user:library". */
  private readonly answers = new Map<string, { sees: boolean; at: number }>();

  constructor(private readonly repository: LibraryAccessRepository) {}

  /** The ids of the libraries hidden from this user (ascending); empty for administrators. */
  async hiddenFrom(viewer: LibraryViewer): Promise<readonly number[]> {
    if (viewer.role === 'ADMIN') return [];
    const restricted = await this.restrictedIds();
    if (restricted.length === 0) return [];
    const member = new Set(await this.repository.memberOf(viewer.id, restricted));
    return restricted.filter((id) => !member.has(id));
  }

  /**
   * Whether the user (by id alone: the /media path knows no more) may see the library: no query while the library is
   * everyone's; otherwise one, remembered for RESTRICTED_TTL_MS (a stream's Range requests follow one another).
   */
  async userSees(userId: number, libraryId: number): Promise<boolean> {
    if (!(await this.restrictedIds()).includes(libraryId)) return true;
    const key = `${String(userId)}:${String(libraryId)}`;
    const known = this.answers.get(key);
    if (known !== undefined && Date.now() - known.at < RESTRICTED_TTL_MS) return known.sees;
    const sees = await this.repository.adminOrMember(userId, libraryId);
    if (this.answers.size >= ANSWERS_KEPT) this.answers.clear();
    this.answers.set(key, { sees, at: Date.now() });
    return sees;
  }

  /** This process changed who sees a library: the next request reads the list again. */
  changed(): void {
    this.restricted = null;
    this.answers.clear();
  }

  private async restrictedIds(): Promise<readonly number[]> {
    const known = this.restricted;
    if (known !== null && Date.now() - known.at < RESTRICTED_TTL_MS) return known.ids;
    this.loading ??= this.repository
      .restricted()
      .then((ids) => {
        this.restricted = { ids, at: Date.now() };
        return ids;
      })
      .finally(() => {
        this.loading = null;
      });
    return this.loading;
  }
}
