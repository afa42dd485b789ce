import { z } from 'zod';
import { textField } from './text.js';
import { NAME_MAX } from './constants.js';

/** Artist JSON of DESIGN §4; `songs` holds the ids of the artist's songs (the songs themselves come from /api/songs). */
export const Artist = z.object({
  id: z.number().int(),
  name: z.string(),
  image: z.string().nullable(),
  songs: z.array(z.number().int()),
});
export type Artist = z.infer<typeof Artist>;

export const ArtistFormFields = z.object({
  name: textField().trim().min(1, 'Name is required').max(NAME_MAX),
});
export type ArtistFormFields = z.infer<typeof ArtistFormFields>;

/** The edit form: what is absent is kept. */
export const ArtistEditFields = ArtistFormFields.partial();

export const ArtistList = z.array(Artist);
