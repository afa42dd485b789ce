import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyPostgresDatabase } from '../../test/harness.js';
import { createDatabase, type AppDatabase } from './database.js';
import { createNotifications, type Notifications } from './notifications.js';

const CHANNEL = 'tonearm_test_live';

/** Waits until `done()` holds, polling; fails after `timeoutMs`. */
async function until(done: () => boolean, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!done()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The LISTEN connection lost (its backend terminated, as a PostgreSQL restart or a proxy's idle cut would do): the
 * instance listens again on its own, tells its channels to resync, and messages from another instance reach it again.
 */
describe('notifications between instances on PostgreSQL', () => {
  let databaseUrl: string;
  let drop: () => Promise<void>;
  let dataDir: string;
  let database: AppDatabase;

  beforeAll(async () => {
    ({ databaseUrl, drop } = await emptyPostgresDatabase());
    dataDir = await mkdtemp(path.join(tmpdir(), 'tonearm-notify-'));
    database = createDatabase({ dataDir, databaseUrl, poolSize: 2 });
  });

  afterAll(async () => {
    await database.destroy();
    await drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  function instance(): { notifications: Notifications; received: string[]; resyncs: number[] } {
    const notifications = createNotifications({ db: database.db, dialect: 'postgres', databaseUrl, channel: CHANNEL });
    const state = { notifications, received: [] as string[], resyncs: [] as number[] };
    notifications.listen((payload) => state.received.push(payload));
    notifications.onResync(() => state.resyncs.push(Date.now()));
    return state;
  }

  async function terminateListeners(): Promise<number> {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      const result = await admin.query<{ pid: number }>(
        `select pg_terminate_backend(pid) as ok, pid from pg_stat_activity
          where datname = current_database() and query = $1 and pid <> pg_backend_pid()`,
        [`LISTEN ${CHANNEL}`],
      );
      return result.rowCount ?? 0;
    } finally {
      await admin.end();
    }
  }

  it('listens again after its connection is lost, resyncs, and hears the other instance again', async () => {
    const sender = instance();
    const receiver = instance();
    await sender.notifications.start();
    await receiver.notifications.start();
    try {
      await sender.notifications.publish('before');
      await until(() => receiver.received.includes('before'));
      // The sender delivered its own message at once and not a second time from the database.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(sender.received).toEqual(['before']);

      expect(await terminateListeners()).toBe(2);
      await until(() => receiver.resyncs.length === 1 && sender.resyncs.length === 1);

      await sender.notifications.publish('after');
      await until(() => receiver.received.includes('after'));
      expect(receiver.received).toEqual(['before', 'after']);
    } finally {
      await sender.notifications.stop();
      await receiver.notifications.stop();
    }
  });

  it('stays stopped: no listening again once stopped, even when the connection then drops', async () => {
    const stopped = instance();
    await stopped.notifications.start();
    await stopped.notifications.stop();
    expect(await terminateListeners()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(stopped.resyncs).toEqual([]);
  });
});
