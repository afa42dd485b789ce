import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import type { Dialect } from '../db/database.js';
import type { DB } from '../db/schema.js';
import type { App } from '../http/app-types.js';

const HealthResponse = z.object({ status: z.literal('ok'), db: z.enum(['sqlite', 'postgres']) });

/** Liveness plus a round trip to the database: a load balancer should not route to an instance without one. */
export function registerHealth(app: App, db: Kysely<DB>, dialect: Dialect): void {
  app.get('/healthz', { config: { access: 'public' }, schema: { response: { 200: HealthResponse } } }, async () => {
    await sql`select 1`.execute(db);
    return { status: 'ok' as const, db: dialect };
  });
}
