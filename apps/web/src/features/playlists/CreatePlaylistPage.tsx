import { useQuery } from '@tanstack/react-query';
import { PlaylistClientMessages, PlaylistFormFields, type Playlist, type Song } from '@tonearm/contract';
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { describeError } from '../../lib/api-client.js';
import { fieldErrorsOf, type FieldErrors } from '../../lib/field-errors.js';
import { Paths } from '../../lib/paths.js';
import { UiMessages } from '../../lib/ui-messages.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import { Cover } from '../../ui/Cover.js';
import { FileInput } from '../../ui/FileInput.js';
import { FormField } from '../../ui/FormField.js';
import { ArrowLeftIcon } from '../../ui/icons.js';
import { RouteLoader } from '../../ui/RouteLoader.js';
import { songQueries } from '../songs/queries.js';
import { useCreatePlaylist, useUpdatePlaylist, type NewPlaylistForm } from './mutations.js';
import { playlistHref } from './PlaylistCard.js';
import { playlistQueries } from './queries.js';
import { SongPicker } from './SongPicker.js';
import '../../ui/buttons.css';
import '../../ui/card.css';
import '../../ui/empty-state.css';
import '../../ui/forms.css';
import '../../ui/page.css';
import './SongPicker.css';
import './CreatePlaylistPage.css';

type Field = keyof NewPlaylistForm;

interface EditorProps {
  /** Present in edit mode: the playlist and its songs as they are. */
  playlist?: Playlist;
  songs?: readonly Song[];
}

/** Every field, always sent (an edit replaces them all): isPublic as 'true'/'false', songs as a JSON array of ids. */
function buildForm(
  values: { name: string; type: string; isPublic: boolean },
  songs: readonly Song[],
  image: File | null,
): NewPlaylistForm {
  return {
    name: values.name,
    type: values.type,
    isPublic: values.isPublic,
    songs: JSON.stringify(songs.map((song) => song.id)),
    image: image ?? undefined,
  };
}

/** The playlist form: name, type, public/private, optional cover, and the songs in order. */
function PlaylistEditor({ playlist, songs = [] }: EditorProps) {
  const editing = playlist !== undefined;
  const [values, setValues] = useState({
    name: playlist?.name ?? '',
    type: playlist?.type ?? '',
    isPublic: playlist?.isPublic ?? false,
  });
  const [picked, setPicked] = useState<Song[]>([...songs]);
  const [image, setImage] = useState<File | null>(null);
  const [removeImage, setRemoveImage] = useState(false);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const form = useRef<HTMLFormElement>(null);
  // Bumped by each refused submit: once its messages have rendered, the first field in error is focused and put in the
  // middle of the screen with its label and message (issue 26: the page used to scroll "Name is required" out of sight).
  const [showFirstError, setShowFirstError] = useState(0);
  useEffect(() => {
    if (showFirstError === 0) return;
    const invalid = form.current?.querySelector('.field--invalid');
    invalid?.querySelector('input')?.focus({ preventScroll: true });
    invalid?.scrollIntoView({ block: 'center' });
  }, [showFirstError]);
  const create = useCreatePlaylist();
  const update = useUpdatePlaylist();
  const alerts = useAlerts();
  const navigate = useNavigate();
  const pending = create.isPending || update.isPending;
  const title = editing ? 'Edit playlist' : 'Create playlist';

  const onSubmit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const parsed = PlaylistFormFields.safeParse({ ...values, songs: '[]' });
    setErrors(fieldErrorsOf<Field>(parsed));
    if (!parsed.success) {
      setShowFirstError((count) => count + 1);
      return;
    }
    const form = buildForm({ ...values, name: parsed.data.name, type: parsed.data.type }, picked, image);
    const done = {
      onSuccess: (saved: Playlist) => {
        alerts.success(editing ? UiMessages.playlistUpdated(saved.name) : UiMessages.playlistCreated(saved.name));
        void navigate(playlistHref(saved.id));
      },
      onError: (error: Error) => {
        alerts.error(
          editing ? UiMessages.failedToUpdatePlaylist : UiMessages.failedToCreatePlaylist,
          describeError(error),
        );
      },
    };
    if (editing) {
      const changes = { ...form, removeImage: image === null && removeImage ? true : undefined };
      update.mutate({ playlistId: playlist.id, form: changes }, done);
    } else {
      create.mutate(form, done);
    }
  };

  return (
    <form ref={form} className="form card playlist-form" aria-label={title} noValidate onSubmit={onSubmit}>
      <div className="playlist-form__fields">
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
                // A name typed answers "Name is required": the message goes as the field changes.
                setErrors(({ name: _answered, ...others }) => others);
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
        <FormField
          label="Cover image"
          error={errors.image}
          optional
          hint={editing && playlist.imgLink ? 'Choose a file to replace the current cover' : undefined}
        >
          {(control) => (
            <FileInput {...control} name="image" accept="image/jpeg,image/png,image/webp" onFile={setImage} />
          )}
        </FormField>
        {editing && playlist.imgLink && (
          <div className="playlist-form__cover">
            <Cover src={playlist.imgLink} width={64} className="picker__cover" />
            <label className="checkbox">
              <input
                type="checkbox"
                checked={removeImage}
                disabled={image !== null}
                onChange={(event) => {
                  setRemoveImage(event.target.checked);
                }}
              />
              <span>Remove the current cover</span>
            </label>
          </div>
        )}
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
      </div>
      <SongPicker picked={picked} onChange={setPicked} />
      <div className="form__actions">
        {editing && (
          <Link to={playlistHref(playlist.id)} className="button button--ghost">
            Cancel
          </Link>
        )}
        <button type="submit" className="button button--primary" disabled={pending}>
          {pending ? 'Saving…' : editing ? 'Save changes' : 'Create playlist'}
        </button>
      </div>
    </form>
  );
}

function EditPlaylist({ playlistId }: { playlistId: number }) {
  const playlist = useQuery(playlistQueries.detail(playlistId));
  const songs = useQuery(songQueries.playlist(playlistId));
  if (playlist.isError || songs.isError) {
    return (
      <div className="empty-state">
        <p className="empty-state__title">This playlist could not be loaded.</p>
        <Link to={Paths.playlist} className="button button--ghost">
          All playlists
        </Link>
      </div>
    );
  }
  if (!playlist.data || !songs.data) return <RouteLoader label="Loading playlist" />;
  if (playlist.data.source) {
    // Read-only: the server refuses every edit of a playlist that follows a file.
    return (
      <div className="empty-state">
        <p className="empty-state__title">{PlaylistClientMessages.fromFileEyebrow}</p>
        <p>{PlaylistClientMessages.fromFile(playlist.data.source.path)}</p>
        <Link to={Paths.playlist} className="button button--ghost">
          All playlists
        </Link>
      </div>
    );
  }
  return <PlaylistEditor key={playlistId} playlist={playlist.data} songs={songs.data} />;
}

/**
 * `/dashboard/create-playlist`: a new playlist (`playlists.create`); with `?edit=<id>` the same form edits one
 * (`playlists.update`).
 */
export function CreatePlaylistPage() {
  const [params] = useSearchParams();
  const editId = Number(params.get('edit'));
  const editing = Number.isInteger(editId) && editId > 0;
  return (
    <div className="page page--wide-form">
      {editing && (
        <Link to={playlistHref(editId)} className="back-link">
          <ArrowLeftIcon size={18} />
          Back to the playlist
        </Link>
      )}
      <header className="page-header">
        <div className="page-header__text">
          <p className="eyebrow">Your library</p>
          <h1 className="page-title">{editing ? 'Edit playlist' : 'Create playlist'}</h1>
        </div>
      </header>
      {editing ? <EditPlaylist playlistId={editId} /> : <PlaylistEditor key="new" />}
    </div>
  );
}
