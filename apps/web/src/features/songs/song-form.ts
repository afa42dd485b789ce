import {
  ClientMessages,
  GenreField,
  SongAlbumFormFields,
  SongAlbumMessages,
  SongFormFields,
  SongName,
  type endpoints,
  type FileNamesOf,
} from '@tonearm/contract';
import type { FormValues } from '../../lib/api.js';
import { audioProblem, imageProblem } from '../../lib/upload-files.js';

export type SongFormMode = 'add' | 'edit';

/** The song form's files, named as the contract names them (`songFile`, `imageFile`). */
type SongFiles = Record<FileNamesOf<typeof endpoints.songs.create>, File | null>;

export interface SongFormValues extends SongFiles {
  name: string;
  genre: string;
  /** The artist select's value: '' when none is chosen. */
  artistId: string;
  /** Issue 12, optional: the album's name, its track and disc numbers, and the year ('' when none). */
  album: string;
  trackNumber: string;
  discNumber: string;
  year: string;
}

/** The optional album fields, after SPEC's own (issue 12). */
export const ALBUM_FIELDS = ['album', 'trackNumber', 'discNumber', 'year'] as const;
type AlbumField = (typeof ALBUM_FIELDS)[number];

/** What add (POST) and edit (PUT) send: the same fields, by the contract's names. */
export type SongForm = FormValues<typeof endpoints.songs.create> & FormValues<typeof endpoints.songs.update>;

export type SongFormField = keyof SongFormValues;

export interface SongFormValidation {
  fieldErrors: Partial<Record<SongFormField, string>>;
  /** The one spec message shown as a red alert: adding without both files. */
  alert: string | null;
}

function firstIssue(result: { success: boolean; error?: { issues: { message: string }[] } }): string | undefined {
  return result.success ? undefined : result.error?.issues[0]?.message;
}

/**
 * SPEC §5: name and genre are always required; when adding, the artist and both files are required too, and
 * a missing file gives "Please upload both song and image files.". Messages come from the contract schemas
 * the server validates with.
 */
export function validateSongForm(values: SongFormValues, mode: SongFormMode): SongFormValidation {
  const fieldErrors: SongFormValidation['fieldErrors'] = {};
  const name = firstIssue(SongName.safeParse(values.name));
  if (name) fieldErrors.name = name;
  const genre = firstIssue(GenreField.safeParse(values.genre));
  if (genre) fieldErrors.genre = genre;
  if (mode === 'add' || values.artistId !== '') {
    const artist = firstIssue(SongFormFields.shape.artistId.safeParse(values.artistId));
    if (artist) fieldErrors.artistId = artist;
  }
  if (values.songFile) {
    const problem = audioProblem(values.songFile);
    if (problem) fieldErrors.songFile = problem;
  }
  if (values.imageFile) {
    const problem = imageProblem(values.imageFile);
    if (problem) fieldErrors.imageFile = problem;
  }
  for (const field of ALBUM_FIELDS) {
    const problem = firstIssue(SongAlbumFormFields.shape[field].safeParse(values[field]));
    if (problem) fieldErrors[field] = problem;
  }
  if (values.album.trim() === '') {
    const numbered = (['trackNumber', 'discNumber'] as const).find((field) => values[field].trim() !== '');
    if (numbered && !fieldErrors[numbered]) fieldErrors[numbered] = SongAlbumMessages.albumForTrack;
  }
  const missingFile = mode === 'add' && (!values.songFile || !values.imageFile);
  return { fieldErrors, alert: missingFile ? ClientMessages.uploadBothFiles : null };
}

export function isValidSongForm(validation: SongFormValidation): boolean {
  return validation.alert === null && Object.keys(validation.fieldErrors).length === 0;
}

/**
 * SPEC §3 song form payload: name, genre, artistId, songFile, imageFile. The artist and the files only when given
 * (an edit without them keeps the song's own). The album fields (issue 12) only when filled in (adding) or changed
 * (editing: `initial` are the values the form opened with), so an edit leaves the song's album as it is unless asked;
 * a field emptied in an edit is sent empty, which clears it.
 */
export function toSongForm(values: SongFormValues, initial?: SongFormValues): SongForm {
  const albumFields: Partial<Record<AlbumField, string>> = {};
  for (const field of ALBUM_FIELDS) {
    const value = values[field].trim();
    if (initial === undefined ? value !== '' : value !== initial[field].trim()) albumFields[field] = value;
  }
  return {
    name: values.name.trim(),
    genre: values.genre,
    artistId: values.artistId === '' ? undefined : values.artistId,
    ...albumFields,
    songFile: values.songFile ?? undefined,
    imageFile: values.imageFile ?? undefined,
  };
}
