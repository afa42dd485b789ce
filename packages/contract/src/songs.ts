import { z } from 'zod';
import { NAME_MAX } from './constants.js';
import { DbId, DbIdText, Paging } from './common.js';
import { GENRES } from './genres.js';

/** Song JSON of DESIGN §4; link and imgLink are URLs on this server, likeSong is per requesting user. */
export const Song = z.object({
  id: z.number().int(),
  name: z.string(),
  genre: z.string(),
  link: z.string(),
  imgLink: z.string(),
  artistId: z.number().int().nullable(),
  artistName: z.string(),
  likeSong: z.boolean(),
  durationMs: z.number().int().nullable(),
  playlistIds: z.array(z.number().int()),
});
export type Song = z.infer<typeof Song>;

export const SongName = z.string().trim().min(1, 'Name is required').max(NAME_MAX);
export const GenreField = z.enum(GENRES, { error: 'Choose a genre from the list' });

/** The text fields of the multipart song form (files travel as songFile and imageFile). */
export const SongFormFields = z.object({
  name: SongName,
  genre: GenreField,
  artistId: z.coerce.number().int().positive('Choose an artist').pipe(DbId),
});
export type SongFormFields = z.infer<typeof SongFormFields>;

export const SongEditFields = SongFormFields.partial().extend({ name: SongName, genre: GenreField });

export const SongListQuery = Paging.extend({
  q: z.string().trim().max(200).optional(),
  genre: z.string().max(60).optional(),
  artistId: DbIdText.optional(),
});
export type SongListQuery = z.infer<typeof SongListQuery>;

/** A list of songs (JSON array). */
export const SongList = z.array(Song);
