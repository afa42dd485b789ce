import { z } from 'zod';

/** One entry of the caller's recent list (GET /api/plays/recent): distinct songs, most recent first, at most 10. */
export const RecentPlay = z.object({ songId: z.number().int(), playedAt: z.string() });
export type RecentPlay = z.infer<typeof RecentPlay>;
export const RecentPlaysResponse = z.array(RecentPlay);
export type RecentPlaysResponse = z.infer<typeof RecentPlaysResponse>;
