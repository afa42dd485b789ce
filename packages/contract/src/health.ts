import { z } from 'zod';

/** `GET /healthz`: liveness plus the database the instance reached. */
export const HealthResponse = z.object({ status: z.literal('ok'), db: z.enum(['sqlite', 'postgres']) });
export type HealthResponse = z.infer<typeof HealthResponse>;
