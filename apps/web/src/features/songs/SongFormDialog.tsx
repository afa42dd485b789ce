import { useQuery } from '@tanstack/react-query';
import { ClientMessages, GENRES, UNKNOWN_ALBUM, type Artist, type Song } from '@tonearm/contract';
import { useRef, useState, type SubmitEvent } from 'react';
import { describeError, isNetworkError } from '../../lib/api-client.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import { Dialog } from '../../ui/Dialog.js';
import { FileInput } from '../../ui/FileInput.js';
import { FormField } from '../../ui/FormField.js';
import { artistQueries } from '../artists/queries.js';
import { LyricsFields, lyricsRefusal, useLyricsEdit } from './LyricsField.js';
import { useSaveSong } from './mutations.js';
import {
  ALBUM_FIELDS,
  isValidSongForm,
  toSongForm,
  validateSongForm,
  type SongFormField,
  type SongFormValues,
} from './song-form.js';
import '../../ui/Dialog.css';
import '../../ui/buttons.css';
import '../../ui/forms.css';

export interface SongFormDialogProps {
  /** The song to edit; absent when adding. */
  song?: Song | undefined;
  /** Preselected artist (adding from an artist's list). */
  artist?: Artist | undefined;
  onClose: () => void;
  onSaved: () => void;
}

const FIELD_ORDER: SongFormField[] = [
  'name',
  'genre',
  'artistId',
  'songFile',
  'imageFile',
  'album',
  'trackNumber',
  'discNumber',
  'year',
];

/** A number the form shows ('' when unknown); songs stored by an older web app lack the album fields. */
function shown(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}

/**
 * The album the form shows: the song's, or '' for none. A song without an album of its own is on its artist's
 * "Unknown album" (issue 25), which the form shows as none: left empty, the song stays there (and follows its artist).
 */
function shownAlbum(song: Song | undefined): string {
  const name = song?.albumName;
  return name === undefined || name === null || name === UNKNOWN_ALBUM ? '' : name;
}

function initialValues(song: Song | undefined, artist: Artist | undefined): SongFormValues {
  const artistId = song?.artistId ?? artist?.id;
  return {
    name: song?.name ?? '',
    genre: song?.genre ?? '',
    artistId: artistId === undefined ? '' : String(artistId),
    songFile: null,
    imageFile: null,
    album: shownAlbum(song),
    trackNumber: shown(song?.trackNumber),
    discNumber: shown(song?.discNumber),
    year: shown(song?.year),
  };
}

/** SPEC §2/§5 Add/Edit Song popup. */
export function SongFormDialog({ song, artist, onClose, onSaved }: SongFormDialogProps) {
  const mode = song ? 'edit' : 'add';
  const [initial] = useState(() => initialValues(song, artist));
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<SongFormField, string>>>({});
  const formRef = useRef<HTMLFormElement>(null);
  const alerts = useAlerts();
  const artists = useQuery(artistQueries.list());
  const save = useSaveSong();
  const lyrics = useLyricsEdit(song?.id ?? null);
  const [lyricsError, setLyricsError] = useState<string | undefined>();
  const [savingLyrics, setSavingLyrics] = useState(false);
  const required = mode === 'add';

  const update = <K extends SongFormField>(field: K, value: SongFormValues[K]): void => {
    setValues((current) => ({ ...current, [field]: value }));
  };

  const focusField = (name: string): void => {
    formRef.current?.querySelector<HTMLElement>(`[name="${name}"]`)?.focus();
  };

  const reportFailure = (error: unknown): void => {
    if (isNetworkError(error)) alerts.error(ClientMessages.errorAddingSong);
    else alerts.error(ClientMessages.failedToAddSong, describeError(error));
  };

  const saveSong = (): void => {
    save.mutate(
      { form: toSongForm(values, mode === 'edit' ? initial : undefined), songId: song?.id },
      {
        onSuccess: (text) => {
          alerts.success(text);
          onSaved();
        },
        onError: reportFailure,
      },
    );
  };

  /** The lyrics first (a refusal names its line, and nothing else is sent), then the song's form. */
  const saveAll = async (): Promise<void> => {
    setSavingLyrics(true);
    try {
      await lyrics.save();
    } catch (error) {
      const refusal = lyricsRefusal(error);
      if (refusal === null) reportFailure(error);
      else {
        setLyricsError(refusal);
        focusField(lyrics.file ? 'lyricsFile' : 'lyrics');
      }
      return;
    } finally {
      setSavingLyrics(false);
    }
    saveSong();
  };

  const onSubmit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const validation = validateSongForm(values, mode);
    setErrors(validation.fieldErrors);
    if (validation.alert) alerts.error(validation.alert);
    const lyricsProblem = lyrics.problem() ?? undefined;
    setLyricsError(lyricsProblem);
    if (!isValidSongForm(validation)) {
      const firstInvalid =
        FIELD_ORDER.find((field) => validation.fieldErrors[field]) ?? (validation.alert ? 'songFile' : null);
      if (firstInvalid) focusField(firstInvalid);
      return;
    }
    if (lyricsProblem !== undefined) {
      focusField(lyrics.file ? 'lyricsFile' : 'lyrics');
      return;
    }
    void saveAll();
  };

  const artistOptions = artists.data ?? (artist ? [artist] : []);

  return (
    <Dialog title={mode === 'add' ? 'Add Song' : 'Edit Song'} onClose={onClose}>
      <form ref={formRef} className="form" noValidate onSubmit={onSubmit}>
        <FormField label="Name" error={errors.name}>
          {(control) => (
            <input
              {...control}
              name="name"
              className="input"
              type="text"
              autoComplete="off"
              required
              value={values.name}
              onChange={(event) => {
                update('name', event.target.value);
              }}
            />
          )}
        </FormField>
        <FormField label="Genre" error={errors.genre}>
          {(control) => (
            <select
              {...control}
              name="genre"
              className="input select"
              required
              value={values.genre}
              onChange={(event) => {
                update('genre', event.target.value);
              }}
            >
              <option value="">Choose a genre</option>
              {GENRES.map((genre) => (
                <option key={genre} value={genre}>
                  {genre}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label="Artist" error={errors.artistId} optional={!required}>
          {(control) => (
            <select
              {...control}
              name="artistId"
              className="input select"
              required={required}
              value={values.artistId}
              onChange={(event) => {
                update('artistId', event.target.value);
              }}
            >
              <option value="">{artists.isPending ? 'Loading artists…' : 'Choose an artist'}</option>
              {artistOptions.map((option) => (
                <option key={option.id} value={String(option.id)}>
                  {option.name}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField
          label="Song file"
          error={errors.songFile}
          optional={!required}
          hint={required ? 'MP3, FLAC, Ogg, M4A or WAV' : 'Leave empty to keep the current audio'}
        >
          {(control) => (
            <FileInput
              {...control}
              name="songFile"
              accept="audio/*"
              required={required}
              onFile={(file) => {
                update('songFile', file);
              }}
            />
          )}
        </FormField>
        <FormField
          label="Image file"
          error={errors.imageFile}
          optional={!required}
          hint={required ? 'JPEG, PNG or WebP cover' : 'Leave empty to keep the current cover'}
        >
          {(control) => (
            <FileInput
              {...control}
              name="imageFile"
              accept="image/*"
              required={required}
              onFile={(file) => {
                update('imageFile', file);
              }}
            />
          )}
        </FormField>
        <AlbumFields values={values} errors={errors} onChange={update} />
        {mode === 'edit' && <LyricsFields edit={lyrics} error={lyricsError} />}
        <div className="dialog__actions">
          <button type="button" className="button button--ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={save.isPending || savingLyrics}>
            {save.isPending || savingLyrics ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Issue 12: the optional Album, Track, Disc and Year fields, after every field of SPEC's form. */
function AlbumFields({
  values,
  errors,
  onChange,
}: {
  values: SongFormValues;
  errors: Partial<Record<SongFormField, string>>;
  onChange: (field: (typeof ALBUM_FIELDS)[number], value: string) => void;
}) {
  const labels = { album: 'Album', trackNumber: 'Track', discNumber: 'Disc', year: 'Year' } as const;
  return (
    <>
      {ALBUM_FIELDS.map((field) => (
        <FormField
          key={field}
          label={labels[field]}
          error={errors[field]}
          optional
          hint={
            field === 'album' ? `One of the artist's albums; a new name adds it, none is "${UNKNOWN_ALBUM}"` : undefined
          }
        >
          {(control) => (
            <input
              {...control}
              name={field}
              className="input"
              type="text"
              inputMode={field === 'album' ? undefined : 'numeric'}
              autoComplete="off"
              value={values[field]}
              onChange={(event) => {
                onChange(field, event.target.value);
              }}
            />
          )}
        </FormField>
      ))}
    </>
  );
}
