import type { Kysely } from 'kysely';
import type { Dialect } from '../db/database.js';
import type { DB } from '../db/schema.js';
import { DatabaseCounterStore, MemoryCounterStore, type CounterStore } from './counter-store.js';

/**
 * PostgreSQL is what several instances share, so their counts go in it. SQLite serves one process by design, and there
 * memory answers without a write on the event loop (docs/design.md, "Several instances", has the figures).
 */
export function countersFor(db: Kysely<DB>, dialect: Dialect): CounterStore {
  return dialect === 'postgres' ? new DatabaseCounterStore(db) : new MemoryCounterStore();
}
