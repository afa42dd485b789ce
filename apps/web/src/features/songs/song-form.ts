import { ClientMessages, GenreField, SongFormFields, SongName } from '@tonearm/contract';
import { audioProblem, imageProblem } from '../../lib/upload-files.js';

export type SongFormMode = 'add' | 'edit';

export interface SongFormValues {
  name: string;
  genre: string;
  /** The artist select's value: '' when none is chosen. */
  artistId: string;
  songFile: File | null;
  imageFile: File | null;
}

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
  const missingFile = mode === 'add' && (!values.songFile || !values.imageFile);
  return { fieldErrors, alert: missingFile ? ClientMessages.uploadBothFiles : null };
}

export function isValidSongForm(validation: SongFormValidation): boolean {
  return validation.alert === null && Object.keys(validation.fieldErrors).length === 0;
}

/** SPEC §3 song form payload: name, genre, songFile, imageFile, artistId (files and artist only when given). */
export function toSongFormData(values: SongFormValues): FormData {
  const form = new FormData();
  form.set('name', values.name.trim());
  form.set('genre', values.genre);
  if (values.artistId !== '') form.set('artistId', values.artistId);
  if (values.songFile) form.set('songFile', values.songFile);
  if (values.imageFile) form.set('imageFile', values.imageFile);
  return form;
}
