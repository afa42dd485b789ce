import { sql, type Kysely, type Selectable } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { DB, ScrobbleAccountsTable, ScrobbleQueueTable } from '../../db/schema.js';

export type AccountRow = Selectable<ScrobbleAccountsTable>;
export type QueueRow = Selectable<ScrobbleQueueTable>;
/** A claimed row with what sending it needs from its account. */
export type ClaimedRow = QueueRow & Pick<AccountRow, 'service' | 'secrets' | 'user_id'>;
export type NewQueueRow = Omit<QueueRow, 'id' | 'attempts' | 'claimed_until' | 'last_error'>;

/** What a song is sent as (captured when queued). */
export interface SongForScrobble {
  artist: string;
  title: string;
  album: string | null;
  duration_ms: number | null;
}

export interface ScrobblingRepository {
  saveAccount(account: Omit<AccountRow, 'id' | 'state' | 'last_error' | 'last_sent_at'>): Promise<AccountRow>;
  accountsOf(userId: number): Promise<(AccountRow & { queued: number })[]>;
  deleteAccount(userId: number, service: AccountRow['service']): Promise<boolean>;
  /** The user's accounts that take new rows (state ok). */
  sendingAccounts(userId: number): Promise<Pick<AccountRow, 'id' | 'connected_at'>[]>;
  song(songId: number): Promise<SongForScrobble | undefined>;
  /** Queues rows; a listen already queued for an account is not queued again. A new now-playing replaces the older. */
  enqueue(rows: readonly NewQueueRow[]): Promise<void>;
  /** Claims up to `limit` due rows of accounts in state ok, oldest first, until `untilIso` (no other sender takes them). */
  claim(nowIso: string, untilIso: string, limit: number): Promise<ClaimedRow[]>;
  /** Sent (or refused for good): gone from the queue; the account's last sent time and last error set. */
  done(accountId: number, ids: readonly number[], at: string, error: string | null): Promise<void>;
  /** Put back, to be tried again at `nextIso`. */
  retry(ids: readonly number[], nextIso: string, error: string): Promise<void>;
  /** The service refused the credentials: the account waits for the listener; its rows wait with it. */
  needsAttention(accountId: number, error: string, ids: readonly number[]): Promise<void>;
  /** When the next row comes due (null when none waits). */
  nextDue(): Promise<string | null>;
}

export function createScrobblingRepository(db: Kysely<DB>, dialect: Dialect): ScrobblingRepository {
  return {
    async saveAccount(account) {
      const fresh = { ...account, state: 'ok' as const, last_error: null };
      return db
        .insertInto('scrobble_accounts')
        .values(fresh)
        .onConflict((conflict) =>
          conflict.columns(['user_id', 'service']).doUpdateSet({
            secrets: account.secrets,
            remote_name: account.remote_name,
            state: 'ok',
            last_error: null,
            connected_at: account.connected_at,
          }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async accountsOf(userId) {
      const rows = await db
        .selectFrom('scrobble_accounts')
        .selectAll('scrobble_accounts')
        .select((eb) =>
          eb
            .selectFrom('scrobble_queue')
            .select((inner) => inner.fn.countAll<number | string>().as('n'))
            .whereRef('scrobble_queue.account_id', '=', 'scrobble_accounts.id')
            .as('queued'),
        )
        .where('user_id', '=', userId)
        .orderBy('service')
        .execute();
      return rows.map((row) => ({ ...row, queued: Number(row.queued ?? 0) }));
    },

    async deleteAccount(userId, service) {
      const result = await db
        .deleteFrom('scrobble_accounts')
        .where('user_id', '=', userId)
        .where('service', '=', service)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    sendingAccounts(userId) {
      return db
        .selectFrom('scrobble_accounts')
        .select(['id', 'connected_at'])
        .where('user_id', '=', userId)
        .where('state', '=', 'ok')
        .execute();
    },

    song(songId) {
      return db
        .selectFrom('songs')
        .leftJoin('artists', 'artists.id', 'songs.artist_id')
        .leftJoin('album_tracks', 'album_tracks.song_id', 'songs.id')
        .leftJoin('albums', (join) =>
          join.onRef('albums.id', '=', 'album_tracks.album_id').on('albums.is_placeholder', '=', 0),
        )
        .select([
          (eb) => eb.fn.coalesce('songs.display_artist', 'artists.name', sql.lit('Unknown artist')).as('artist'),
          'songs.name as title',
          'albums.name as album',
          'songs.duration_ms',
        ])
        .where('songs.id', '=', songId)
        .executeTakeFirst();
    },

    async enqueue(rows) {
      if (rows.length === 0) return;
      await db.transaction().execute(async (trx) => {
        const playing = rows.filter((row) => row.kind === 'now_playing').map((row) => row.account_id);
        if (playing.length > 0) {
          await trx
            .deleteFrom('scrobble_queue')
            .where('kind', '=', 'now_playing')
            .where('account_id', 'in', playing)
            .where('claimed_until', 'is', null)
            .execute();
        }
        await trx
          .insertInto('scrobble_queue')
          .values([...rows])
          .onConflict((conflict) => conflict.columns(['account_id', 'listen_id']).doNothing())
          .execute();
      });
    },

    async claim(nowIso, untilIso, limit) {
      return db.transaction().execute(async (trx) => {
        let due = trx
          .selectFrom('scrobble_queue')
          .innerJoin('scrobble_accounts', 'scrobble_accounts.id', 'scrobble_queue.account_id')
          .select('scrobble_queue.id')
          .where('scrobble_accounts.state', '=', 'ok')
          .where('scrobble_queue.next_attempt_at', '<=', nowIso)
          .where((eb) =>
            eb.or([eb('scrobble_queue.claimed_until', 'is', null), eb('scrobble_queue.claimed_until', '<', nowIso)]),
          )
          .orderBy('scrobble_queue.id')
          .limit(limit);
        // Two instances on one PostgreSQL database never claim the same row: a row another is claiming is skipped.
        if (dialect === 'postgres') due = due.forUpdate('scrobble_queue').skipLocked();
        const ids = (await due.execute()).map((row) => row.id);
        if (ids.length === 0) return [];
        await trx.updateTable('scrobble_queue').set({ claimed_until: untilIso }).where('id', 'in', ids).execute();
        return trx
          .selectFrom('scrobble_queue')
          .innerJoin('scrobble_accounts', 'scrobble_accounts.id', 'scrobble_queue.account_id')
          .selectAll('scrobble_queue')
          .select(['scrobble_accounts.service', 'scrobble_accounts.secrets', 'scrobble_accounts.user_id'])
          .where('scrobble_queue.id', 'in', ids)
          .orderBy('scrobble_queue.id')
          .execute();
      });
    },

    async done(accountId, ids, at, error) {
      await db.transaction().execute(async (trx) => {
        if (ids.length > 0)
          await trx
            .deleteFrom('scrobble_queue')
            .where('id', 'in', [...ids])
            .execute();
        await trx
          .updateTable('scrobble_accounts')
          .set(error === null ? { last_sent_at: at } : { last_sent_at: at, last_error: error })
          .where('id', '=', accountId)
          .execute();
      });
    },

    async retry(ids, nextIso, error) {
      if (ids.length === 0) return;
      await db
        .updateTable('scrobble_queue')
        .set((eb) => ({
          next_attempt_at: nextIso,
          claimed_until: null,
          last_error: error,
          attempts: eb('attempts', '+', 1),
        }))
        .where('id', 'in', [...ids])
        .execute();
    },

    async needsAttention(accountId, error, ids) {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('scrobble_accounts')
          .set({ state: 'attention', last_error: error })
          .where('id', '=', accountId)
          .execute();
        if (ids.length > 0) {
          await trx
            .updateTable('scrobble_queue')
            .set({ claimed_until: null })
            .where('id', 'in', [...ids])
            .execute();
        }
      });
    },

    async nextDue() {
      const row = await db
        .selectFrom('scrobble_queue')
        .innerJoin('scrobble_accounts', 'scrobble_accounts.id', 'scrobble_queue.account_id')
        .select((eb) => eb.fn.min('scrobble_queue.next_attempt_at').as('due'))
        .where('scrobble_accounts.state', '=', 'ok')
        .executeTakeFirst();
      return row?.due ?? null;
    },
  };
}
