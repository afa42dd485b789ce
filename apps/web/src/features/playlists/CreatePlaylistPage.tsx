import { PlaylistFormFields } from '@tonearm/contract';
import { useState, type SubmitEvent } from 'react';
import { useNavigate } from 'react-router';
import { describeError } from '../../lib/api-client.js';
import { UiMessages } from '../../lib/ui-messages.js';
import { FormField } from '../../ui/FormField.js';
import { useAlerts } from '../alerts/useAlerts.js';
import { fieldErrorsOf, type FieldErrors } from '../auth/auth-form.js';
import { useCreatePlaylist } from './mutations.js';
import { playlistHref } from './PlaylistCard.js';

type Field = 'name' | 'type' | 'image';

/** `/dashboard/create-playlist`: POST /api/playlists (multipart name, type, isPublic, image, songs). */
export function CreatePlaylistPage() {
  const [values, setValues] = useState({ name: '', type: '', isPublic: false });
  const [image, setImage] = useState<File | null>(null);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const create = useCreatePlaylist();
  const alerts = useAlerts();
  const navigate = useNavigate();

  const onSubmit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const parsed = PlaylistFormFields.safeParse({ ...values, songs: '[]' });
    setErrors(fieldErrorsOf<Field>(parsed));
    if (!parsed.success) return;
    const form = new FormData();
    form.set('name', parsed.data.name);
    form.set('type', parsed.data.type);
    form.set('isPublic', String(parsed.data.isPublic));
    form.set('songs', '[]');
    if (image) form.set('image', image);
    create.mutate(form, {
      onSuccess: (playlist) => {
        alerts.success(UiMessages.playlistCreated(playlist.name));
        void navigate(playlistHref(playlist.id));
      },
      onError: (error) => {
        alerts.error(UiMessages.failedToCreatePlaylist, describeError(error));
      },
    });
  };

  return (
    <div className="page page--narrow">
      <header className="page-header">
        <div className="page-header__text">
          <p className="eyebrow">Your library</p>
          <h1 className="page-title">Create playlist</h1>
        </div>
      </header>
      <form className="form card" aria-label="Create playlist" noValidate onSubmit={onSubmit}>
        <FormField label="Name" error={errors.name}>
          {(control) => (
            <input
              {...control}
              className="input"
              name="name"
              required
              autoComplete="off"
              value={values.name}
              onChange={(event) => {
                setValues({ ...values, name: event.target.value });
              }}
            />
          )}
        </FormField>
        <FormField label="Type" error={errors.type} optional hint="A label such as Workout, Chill or Road trip">
          {(control) => (
            <input
              {...control}
              className="input"
              name="type"
              autoComplete="off"
              value={values.type}
              onChange={(event) => {
                setValues({ ...values, type: event.target.value });
              }}
            />
          )}
        </FormField>
        <FormField label="Cover image" error={errors.image} optional>
          {(control) => (
            <input
              {...control}
              className="input file-input"
              name="image"
              type="file"
              accept="image/*"
              onChange={(event) => {
                setImage(event.target.files?.[0] ?? null);
              }}
            />
          )}
        </FormField>
        <label className="checkbox">
          <input
            type="checkbox"
            name="isPublic"
            checked={values.isPublic}
            onChange={(event) => {
              setValues({ ...values, isPublic: event.target.checked });
            }}
          />
          <span>Public: everyone on this server can see and play it</span>
        </label>
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create playlist'}
          </button>
        </div>
      </form>
    </div>
  );
}
