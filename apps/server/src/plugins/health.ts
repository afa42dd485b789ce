import { endpoints } from '@tonearm/contract';
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db/database.js';
import type { DB } from '../db/schema.js';
import type { App } from '../http/app-types.js';
import { route } from '../http/endpoint-route.js';

/** Liveness plus a round trip to the database: a load balancer should not route to an instance without one. */
export function registerHealth(app: App, db: Kysely<DB>, dialect: Dialect): void {
  route(app, endpoints.health.check, async () => {
    await sql`select 1`.execute(db);
    return { status: 'ok' as const, db: dialect };
  });
}
