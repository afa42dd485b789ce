import { z } from 'zod';

/** Issue 28: a user's stars on a song, an album or an artist run from RATING_MIN to RATING_MAX; 0 clears them. */
export const RATING_MIN = 1;
export const RATING_MAX = 5;

export const RatingMessages = {
  /** 400 on `rating`: not a whole number from 0 to 5. */
  invalidRating: `A rating is a whole number from 0 (none) to ${RATING_MAX} stars`,
} as const;

/** A user's own rating of an item in its answers: 1–5, or null when they have not rated it. */
export const UserRating = z.number().int().min(RATING_MIN).max(RATING_MAX).nullable();
export type UserRating = z.infer<typeof UserRating>;

/** PUT …/rating: the stars to give, 0 to clear them (like DELETE). */
export const RatingBody = z.object({
  rating: z
    .number({ message: RatingMessages.invalidRating })
    .int(RatingMessages.invalidRating)
    .min(0, RatingMessages.invalidRating)
    .max(RATING_MAX, RatingMessages.invalidRating),
});
export type RatingBody = z.infer<typeof RatingBody>;
