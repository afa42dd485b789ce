import path from 'node:path';
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/dialects.js';
import { insertUser } from '../../test/factories.js';
import { SQLITE_BUSY_TIMEOUT_MS, SQLITE_FILE_NAME } from '../db/database.js';
import { openSqliteFile } from '../db/sqlite-driver.js';
import {
  SESSION_CACHE_MS,
  SHARED_SESSION_CACHE_MS,
  SessionStore,
  hashToken,
  sessionCacheMsFor,
} from './session-store.js';
import { createSessionsRepository } from './sessions.repository.js';

describeEachDialect('SessionStore on %s', { uses: 'database' }, (t) => {
  let userId: number;
  let now: number;
  let store: SessionStore;

  beforeAll(async () => {
    userId = (await insertUser(t)).id;
    now = Date.parse('2030-01-01T00:00:00Z');
    store = new SessionStore(createSessionsRepository(t.db), { ttlSeconds: 3600, clock: () => now });
  });

  it('resolves a fresh token to its user and stores only the hash', async () => {
    const { token, expiresAt } = await store.create(userId);
    expect(expiresAt.getTime()).toBe(now + 3600 * 1000);
    expect((await store.resolve(token))?.id).toBe(userId);
    const rows = await t.db.selectFrom('sessions').select('id').execute();
    expect(rows.map((r) => r.id)).toContain(hashToken(token));
    expect(rows.map((r) => r.id)).not.toContain(token);
  });

  it('ends a session left unused for the idle time, slides a used one forward, and never past the ttl', async () => {
    const hour = 3600 * 1000;
    let clock = now;
    const sliding = new SessionStore(createSessionsRepository(t.db), {
      ttlSeconds: 10 * 3600,
      idleSeconds: 3600,
      cacheMs: 0,
      clock: () => clock,
    });
    const idle = await sliding.create(userId);
    const used = await sliding.create(userId);
    expect(idle.expiresAt.getTime()).toBe(now + hour);
    // Used every 50 minutes: each use pushes the expiry an hour ahead, so it outlives the idle one.
    for (let step = 1; step <= 4; step += 1) {
      clock = now + step * 50 * 60 * 1000;
      expect(await sliding.resolveUserId(used.token)).toBe(userId);
      if (step === 2) expect(await sliding.resolve(idle.token)).toBeNull();
    }
    const row = await t.db
      .selectFrom('sessions')
      .select('expires_at')
      .where('id', '=', hashToken(used.token))
      .executeTakeFirstOrThrow();
    expect(Date.parse(row.expires_at)).toBe(clock + hour);
    // However busy, a session ends at the ttl after sign-in.
    for (clock = now + 4 * hour; clock < now + 10 * hour; clock += 50 * 60 * 1000) {
      expect((await sliding.resolve(used.token))?.id).toBe(userId);
    }
    clock = now + 10 * hour;
    expect(await sliding.resolve(used.token)).toBeNull();
  });

  it('rejects tokens that are not ours without asking the database', async () => {
    expect(await store.resolve('short')).toBeNull();
    expect(await store.resolveUserId('x'.repeat(100))).toBeNull();
  });

  it('answers resolveUserId from memory within the cache period, and from the database after it', async () => {
    const { token } = await store.create(userId);
    expect(await store.resolveUserId(token)).toBe(userId);
    // Removed behind the store's back (another instance): still cached for a moment, then gone.
    await t.db.deleteFrom('sessions').where('id', '=', hashToken(token)).execute();
    expect(await store.resolveUserId(token)).toBe(userId);
    now += 5001;
    expect(await store.resolveUserId(token)).toBeNull();
  });

  it('with the cache of the dialect, another instance sees a revocation within 1 s on PostgreSQL', async () => {
    const cacheMs = sessionCacheMsFor(t.dialect);
    const repository = createSessionsRepository(t.db);
    const [here, there] = [0, 1].map(
      () => new SessionStore(repository, { ttlSeconds: 3600, cacheMs, clock: () => now }),
    );
    if (here === undefined || there === undefined) throw new Error('two stores expected');
    const { token } = await here.create(userId);
    expect(await there.resolveUserId(token)).toBe(userId);
    await here.revoke(token);
    expect(await here.resolveUserId(token)).toBeNull();
    now += cacheMs;
    expect(await there.resolveUserId(token)).toBeNull();
    expect(cacheMs).toBe(t.dialect === 'postgres' ? SHARED_SESSION_CACHE_MS : SESSION_CACHE_MS);
    expect(SHARED_SESSION_CACHE_MS).toBeLessThan(1000);
  });

  it('answers resolve from memory until this process changes a session or a user, or until the cache period ends', async () => {
    const { token } = await store.create(userId);
    expect((await store.resolve(token))?.premium_until).toBeNull();
    // A change through this process's database handle (a payment, a role change) is seen by the next request.
    const premiumUntil = '2999-01-01T00:00:00.000Z';
    await t.db.updateTable('users').set({ premium_until: premiumUntil }).where('id', '=', userId).execute();
    expect((await store.resolve(token))?.premium_until).toBe(premiumUntil);
    await t.db.updateTable('users').set({ premium_until: null }).where('id', '=', userId).execute();
    expect((await store.resolve(token))?.premium_until).toBeNull();
    // One the query builder does not make (standing for another instance's): remembered until the period ends.
    await sql`delete from sessions where id = ${hashToken(token)}`.execute(t.db);
    expect((await store.resolve(token))?.id).toBe(userId);
    now += SESSION_CACHE_MS;
    expect(await store.resolve(token)).toBeNull();
  });

  it('answers cachedUserId from memory alone: null for a foreign token, the cached user, else undefined', async () => {
    const { token } = await store.create(userId);
    expect(store.cachedUserId('x'.repeat(100))).toBeNull();
    expect(store.cachedUserId(token)).toBeUndefined();
    expect(await store.resolveUserId(token)).toBe(userId);
    expect(store.cachedUserId(token)).toBe(userId);
    await store.revoke(token);
    expect(store.cachedUserId(token)).toBeUndefined();
    expect(await store.resolveUserId(token)).toBeNull();
  });

  it('forgets a revoked token at once', async () => {
    const { token } = await store.create(userId);
    expect(await store.resolveUserId(token)).toBe(userId);
    await store.revoke(token);
    expect(await store.resolveUserId(token)).toBeNull();
    expect(await store.resolve(token)).toBeNull();
  });

  it('ends every session of a user except the one kept', async () => {
    const kept = await store.create(userId);
    const other = await store.create(userId);
    expect(await store.resolveUserId(other.token)).toBe(userId);
    await store.revokeAllOfUser(userId, kept.token);
    expect(await store.resolveUserId(other.token)).toBeNull();
    expect(await store.resolveUserId(kept.token)).toBe(userId);
  });

  it('keeps at most maxPerUser sessions: a new one ends the oldest, never itself, and no other user’s', async () => {
    const other = await insertUser(t, { username: 'v' });
    let clock = now;
    const limited = new SessionStore(createSessionsRepository(t.db), {
      ttlSeconds: 3600,
      clock: () => clock,
      maxPerUser: 3,
    });
    await limited.revokeAllOfUser(userId);
    const bystander = await limited.create(other.id);
    const tokens: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      clock += 1000;
      tokens.push((await limited.create(userId)).token);
      // Cached before it is evicted: eviction must clear the cache too.
      expect(await limited.resolveUserId(tokens[i] ?? '')).toBe(userId);
    }
    const live = await Promise.all(tokens.map((token) => limited.resolveUserId(token)));
    expect(live).toEqual([null, null, userId, userId, userId]);
    expect(await limited.resolveUserId(bystander.token)).toBe(other.id);
    const rows = await t.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute();
    expect(rows).toHaveLength(3);

    // Several logins within one millisecond: the newest is always the one kept.
    const single = new SessionStore(createSessionsRepository(t.db), {
      ttlSeconds: 3600,
      clock: () => clock,
      maxPerUser: 1,
    });
    const first = await single.create(userId);
    const second = await single.create(userId);
    expect(await single.resolve(first.token)).toBeNull();
    expect((await single.resolve(second.token))?.id).toBe(userId);
  });

  it('treats an expired session as absent and deletes it', async () => {
    const { token } = await store.create(userId);
    expect(await store.resolveUserId(token)).toBe(userId);
    now += 3600 * 1000;
    expect(await store.resolveUserId(token)).toBeNull();
    expect(await store.resolve(token)).toBeNull();
    const row = await t.db.selectFrom('sessions').select('id').where('id', '=', hashToken(token)).executeTakeFirst();
    expect(row).toBeUndefined();
  });

  // SQLite's write lock only (registered there alone, not skipped elsewhere).
  if (t.dialect === 'sqlite') {
    it('answers while another process holds the write lock, and renews the session later rather than wait', async () => {
      const hour = 3600 * 1000;
      let clock = now;
      const sliding = new SessionStore(createSessionsRepository(t.db), {
        ttlSeconds: 10 * 3600,
        idleSeconds: 3600,
        cacheMs: 0,
        clock: () => clock,
      });
      const { token, expiresAt } = await sliding.create(userId);
      const expiry = async () =>
        Date.parse(
          (
            await t.db
              .selectFrom('sessions')
              .select('expires_at')
              .where('id', '=', hashToken(token))
              .executeTakeFirstOrThrow()
          ).expires_at,
        );
      clock += 50 * 60 * 1000;
      // An import in another process, in the middle of a batch.
      const other = openSqliteFile(path.join(t.database.dataDir, SQLITE_FILE_NAME));
      other.exec('begin immediate');
      try {
        const started = performance.now();
        expect((await sliding.resolve(token))?.id).toBe(userId);
        expect(performance.now() - started).toBeLessThan(SQLITE_BUSY_TIMEOUT_MS / 2);
        expect(await expiry(), 'not renewed while locked').toBe(expiresAt.getTime());
      } finally {
        other.exec('commit');
        other.close();
      }
      expect((await sliding.resolve(token))?.id).toBe(userId);
      expect(await expiry()).toBe(clock + hour);
    });
  }
});
