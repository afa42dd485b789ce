import { z } from 'zod';
import { textField } from './text.js';
import { NAME_MAX, PAGE_LIMIT_MAX } from './constants.js';
import { pageOf } from './common.js';
import { Song } from './songs.js';
import { UserRating } from './ratings.js';

/** Artist JSON of DESIGN §4; `songs` holds the ids of the artist's songs (the songs themselves come from /api/songs). */
export const Artist = z.object({
  id: z.number().int(),
  name: z.string(),
  image: z.string().nullable(),
  songs: z.array(z.number().int()),
  /**
   * Issue 28: the requesting user's stars on the artist (1–5), null when they have not rated it. Only the one artist's
   * answer (GET /artists/{id}) carries it; the lists leave it out (they are shared between users).
   */
  rating: UserRating.optional(),
});
export type Artist = z.infer<typeof Artist>;

export const ArtistFormFields = z.object({
  name: textField().trim().min(1, 'Name is required').max(NAME_MAX),
});
export type ArtistFormFields = z.infer<typeof ArtistFormFields>;

/** The edit form: what is absent is kept. */
export const ArtistEditFields = ArtistFormFields.partial();

export const ArtistList = z.array(Artist);

/**
 * GET /artists takes an optional `limit`: the first that many artists of the list, in its order (by name). Without it
 * the whole list, as SPEC has it; the home page's shelf shows twelve and need not read thousands.
 */
export const ArtistListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(PAGE_LIMIT_MAX).optional(),
  /** Issue 28: `rating`, the caller's rated artists first (most stars first, then by name), then the others by name. */
  sort: z.enum(['name', 'rating']).optional(),
});
export type ArtistListQuery = z.infer<typeof ArtistListQuery>;

/** One role an artist is credited with on a song (a performer with the instrument or voice as `subRole`). */
export const ArtistCreditRole = z.object({ role: z.string(), subRole: z.string().nullable() });
export type ArtistCreditRole = z.infer<typeof ArtistCreditRole>;

/** A song that credits the artist in contributor roles (composer, producer…), with those roles (by role, as tagged). */
export const ArtistCredit = z.object({ song: Song, roles: z.array(ArtistCreditRole) });
export type ArtistCredit = z.infer<typeof ArtistCredit>;

/**
 * GET /api/artists/:id/credits (issue 25): keyset pages of the songs that credit the artist in a contributor role
 * (CONTRIBUTOR_ROLES), oldest song first. The artist's own songs (those of `Artist.songs`, where they are one of the
 * song's artists) and missing songs are left out.
 */
export const ArtistCreditPage = pageOf(ArtistCredit);
export type ArtistCreditPage = z.infer<typeof ArtistCreditPage>;
