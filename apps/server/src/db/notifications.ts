import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { sql, type Kysely } from 'kysely';
import type pg from 'pg';
import type { Dialect } from './database.js';
import type { DB } from './schema.js';

/**
 * Messages between the instances of the server on one database (issue 27's live channel): what one instance publishes
 * reaches every instance's listener, its own included. On PostgreSQL through LISTEN/NOTIFY, on a connection of its
 * own (a pooled one cannot stay listening); on SQLite, whose instances are one process, in memory, shared by every
 * app on the same database object.
 */
export interface Notifications {
  /** Sends `payload` (at most NOTIFY_PAYLOAD_MAX bytes) to every instance, this one at once. */
  publish(payload: string): Promise<void>;
  /** The one listener of this instance. */
  listen(listener: (payload: string) => void): void;
  /** Told when messages may have been missed (the listening connection was lost and is back). */
  onResync(handler: () => void): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
export const NOTIFY_PAYLOAD_MAX = 7900;
/** Waits between two attempts to listen again after the connection was lost: 0.5 s, doubling, at most 10 s. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 10_000;

type Listener = (payload: string) => void;

/** Every listener of the SQLite apps of one database object (two apps in one process share it in the tests). */
const inProcess = new WeakMap<object, Set<Listener>>();

export interface NotificationsOptions {
  db: Kysely<DB>;
  dialect: Dialect;
  databaseUrl: string | null;
  /** The PostgreSQL channel (an identifier: letters, digits, `_`). */
  channel: string;
  log?: { warn: (message: string) => void };
}

export function createNotifications(options: NotificationsOptions): Notifications {
  if (!/^[a-z_][a-z0-9_]*$/.test(options.channel)) throw new Error(`Bad channel name ${options.channel}`);
  return options.dialect === 'postgres' && options.databaseUrl !== null
    ? postgresNotifications(options, options.databaseUrl)
    : memoryNotifications(options.db);
}

function deliver(listener: Listener | null, payload: string): void {
  if (listener === null) return;
  // Never inside the publisher's call: a listener's failure or slowness is not the publisher's.
  queueMicrotask(() => {
    listener(payload);
  });
}

function memoryNotifications(db: object): Notifications {
  let listeners = inProcess.get(db);
  if (listeners === undefined) {
    listeners = new Set();
    inProcess.set(db, listeners);
  }
  const shared = listeners;
  let own: Listener | null = null;
  return {
    publish(payload) {
      for (const listener of shared) deliver(listener, payload);
      return Promise.resolve();
    },
    listen(listener) {
      own = listener;
    },
    onResync: () => undefined,
    start() {
      if (own !== null) shared.add(own);
      return Promise.resolve();
    },
    stop() {
      if (own !== null) shared.delete(own);
      return Promise.resolve();
    },
  };
}

function postgresNotifications(options: NotificationsOptions, databaseUrl: string): Notifications {
  const postgres = createRequire(import.meta.url)('pg') as typeof pg;
  // Each instance knows its own messages by this prefix: they were delivered at once, not again from the database.
  const instance = randomBytes(6).toString('hex');
  const { channel } = options;
  let own: Listener | null = null;
  const resyncs: (() => void)[] = [];
  let client: pg.Client | null = null;
  let stopped = false;
  let retryMs = RETRY_FIRST_MS;
  let retry: NodeJS.Timeout | undefined;

  const onNotification = (message: pg.Notification) => {
    const text = message.payload ?? '';
    const bar = text.indexOf('|');
    if (bar < 0 || text.slice(0, bar) === instance) return;
    deliver(own, text.slice(bar + 1));
  };

  const lost = (listening: pg.Client) => {
    if (client !== listening) return;
    client = null;
    listening.end().catch(() => undefined);
    if (stopped) return;
    options.log?.warn(`Live channel: the LISTEN connection was lost; listening again in ${retryMs} ms`);
    retry = setTimeout(() => {
      void connect(true);
    }, retryMs);
    retryMs = Math.min(RETRY_MAX_MS, retryMs * 2);
  };

  async function connect(again: boolean): Promise<void> {
    const listening = new postgres.Client({ connectionString: databaseUrl });
    client = listening;
    listening.on('notification', onNotification);
    listening.on('error', () => {
      lost(listening);
    });
    listening.on('end', () => {
      lost(listening);
    });
    try {
      await listening.connect();
      await listening.query(`LISTEN ${channel}`);
      retryMs = RETRY_FIRST_MS;
      if (stopped) await listening.end();
      else if (again) for (const resync of resyncs) resync();
    } catch (error) {
      if (!again) throw error;
      lost(listening);
    }
  }

  return {
    async publish(payload) {
      const text = `${instance}|${payload}`;
      if (Buffer.byteLength(text) > NOTIFY_PAYLOAD_MAX) throw new Error('Notification payload too large');
      deliver(own, payload);
      await sql`select pg_notify(${channel}, ${text})`.execute(options.db);
    },
    listen(listener) {
      own = listener;
    },
    onResync(handler) {
      resyncs.push(handler);
    },
    start: () => connect(false),
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const listening = client;
      client = null;
      await listening?.end().catch(() => undefined);
    },
  };
}
