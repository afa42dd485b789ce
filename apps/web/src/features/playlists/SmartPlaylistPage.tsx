import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  PlaylistFormFields,
  SMART_SORT_FIELDS,
  type Playlist,
  type SmartDefinition,
  type SmartSort,
} from '@tonearm/contract';
import { useMemo, useState, type SubmitEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../lib/api.js';
import { describeError } from '../../lib/api-client.js';
import { Paths } from '../../lib/paths.js';
import { useDebouncedValue } from '../../lib/useDebouncedValue.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import { FormField } from '../../ui/FormField.js';
import { ArrowLeftIcon } from '../../ui/icons.js';
import { RouteLoader } from '../../ui/RouteLoader.js';
import { folderQueries } from '../folders/queries.js';
import { useSaveSmartPlaylist } from './mutations.js';
import { playlistHref } from './PlaylistCard.js';
import { playlistKeys, playlistQueries } from './queries.js';
import { definitionOf, draftOf, FIELD_LABELS, previewLabel, type Draft } from './smart-rules.js';
import { GroupEditor } from './SmartRulesEditor.js';
import '../../ui/buttons.css';
import '../../ui/card.css';
import '../../ui/empty-state.css';
import '../../ui/forms.css';
import '../../ui/page.css';
import './CreatePlaylistPage.css';

/** How long the rules must rest before the preview asks the server again. */
const PREVIEW_DEBOUNCE_MS = 300;

const sortLabel = (field: SmartSort['field']): string => (field === 'random' ? 'Random' : FIELD_LABELS[field]);

/** The live count: what the rules choose now, or the server's word on the rule to fix. */
function Preview({ definition }: { definition: SmartDefinition }) {
  const settled = useDebouncedValue(definition, PREVIEW_DEBOUNCE_MS);
  const preview = useQuery({
    queryKey: [...playlistKeys.all, 'smart-preview', JSON.stringify(settled)],
    queryFn: ({ signal }) => api.playlists.previewSmart({ body: { definition: settled } }, { signal }),
    placeholderData: keepPreviousData,
    retry: false,
    // A bad rule is shown here, beside the rules, not as an alert.
    meta: {},
  });
  let text = 'Counting…';
  // A 400 names the rule to fix (e.g. "rules[1]: year needs a number").
  if (preview.isError) text = describeError(preview.error) ?? 'The preview could not be counted';
  else if (preview.data) text = previewLabel(preview.data.count, preview.data.durationMs);
  return (
    <p
      className={preview.isError ? 'smart-preview smart-preview--error' : 'smart-preview'}
      role="status"
      aria-live="polite"
      aria-label="Preview"
    >
      {text}
    </p>
  );
}

function SortAndLimit({ draft, onChange }: { draft: Draft; onChange: (draft: Draft) => void }) {
  return (
    <div className="smart-playlist__order">
      <label className="field">
        <span className="field__label">Sort by</span>
        <select
          className="input"
          value={draft.sort.field}
          onChange={(event) => {
            onChange({ ...draft, sort: { ...draft.sort, field: event.target.value as SmartSort['field'] } });
          }}
        >
          {SMART_SORT_FIELDS.map((field) => (
            <option key={field} value={field}>
              {sortLabel(field)}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field__label">Order</span>
        <select
          className="input"
          value={draft.sort.direction}
          disabled={draft.sort.field === 'random'}
          onChange={(event) => {
            onChange({ ...draft, sort: { ...draft.sort, direction: event.target.value === 'desc' ? 'desc' : 'asc' } });
          }}
        >
          <option value="asc">Ascending</option>
          <option value="desc">Descending</option>
        </select>
      </label>
      <label className="field">
        <span className="field__label">Limit</span>
        <select
          className="input"
          value={draft.limitKind}
          onChange={(event) => {
            onChange({ ...draft, limitKind: event.target.value as Draft['limitKind'] });
          }}
        >
          <option value="none">No limit</option>
          <option value="songs">Songs</option>
          <option value="minutes">Minutes</option>
        </select>
      </label>
      {draft.limitKind !== 'none' && (
        <label className="field">
          <span className="field__label">At most</span>
          <input
            className="input"
            type="number"
            min={1}
            value={draft.limitValue}
            onChange={(event) => {
              onChange({ ...draft, limitValue: event.target.value });
            }}
          />
        </label>
      )}
    </div>
  );
}

/** The smart playlist form: name, sharing, the rules with their live count, sort and limit. */
function SmartEditor({ playlist }: { playlist: Playlist | null }) {
  const [name, setName] = useState(playlist?.name ?? '');
  const [isPublic, setIsPublic] = useState(playlist?.isPublic ?? false);
  const [draft, setDraft] = useState<Draft>(() => draftOf(playlist?.smart ?? null));
  const [nameError, setNameError] = useState<string | undefined>();
  const definition = useMemo(() => definitionOf(draft), [draft]);
  const libraries = useQuery(folderQueries.libraries());
  const save = useSaveSmartPlaylist();
  const alerts = useAlerts();
  const navigate = useNavigate();
  const title = playlist ? 'Edit smart playlist' : 'New smart playlist';

  const onSubmit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const checked = PlaylistFormFields.shape.name.safeParse(name);
    if (!checked.success) {
      setNameError(checked.error.issues[0]?.message);
      return;
    }
    const body = { name: checked.data, type: playlist?.type ?? '', isPublic, definition };
    save.mutate(
      { playlistId: playlist?.id ?? null, body },
      {
        onSuccess: (saved) => {
          alerts.success(playlist ? `Smart playlist “${saved.name}” saved` : `Smart playlist “${saved.name}” created`);
          void navigate(playlistHref(saved.id));
        },
        onError: (error) => {
          alerts.error('The smart playlist could not be saved', describeError(error));
        },
      },
    );
  };

  return (
    <form className="form card smart-playlist" aria-label={title} noValidate onSubmit={onSubmit}>
      <FormField label="Name" error={nameError}>
        {(control) => (
          <input
            {...control}
            className="input"
            name="name"
            autoComplete="off"
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setNameError(undefined);
            }}
          />
        )}
      </FormField>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={isPublic}
          onChange={(event) => {
            setIsPublic(event.target.checked);
          }}
        />
        <span>
          Public: everyone on this server can see and play it (your ratings, likes and plays choose its songs)
        </span>
      </label>
      <GroupEditor
        group={draft.rules}
        name="Rules"
        depth={1}
        libraries={libraries.data?.libraries ?? []}
        onChange={(rules) => {
          setDraft({ ...draft, rules });
        }}
      />
      <SortAndLimit draft={draft} onChange={setDraft} />
      <Preview definition={definition} />
      <div className="form__actions">
        <Link to={playlist ? playlistHref(playlist.id) : Paths.playlist} className="button button--ghost">
          Cancel
        </Link>
        <button type="submit" className="button button--primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : playlist ? 'Save changes' : 'Create smart playlist'}
        </button>
      </div>
    </form>
  );
}

function EditSmart({ playlistId }: { playlistId: number }) {
  const playlist = useQuery(playlistQueries.detail(playlistId));
  if (playlist.isError || playlist.data?.smart === null) {
    return (
      <div className="empty-state">
        <p className="empty-state__title">This smart playlist could not be loaded.</p>
        <Link to={Paths.playlist} className="button button--ghost">
          All playlists
        </Link>
      </div>
    );
  }
  if (!playlist.data) return <RouteLoader label="Loading playlist" />;
  return <SmartEditor key={playlistId} playlist={playlist.data} />;
}

/** `/dashboard/smart-playlist` (issue 28): a new smart playlist; with `?edit=<id>` the same form edits one. */
export function SmartPlaylistPage() {
  const [params] = useSearchParams();
  const editId = Number(params.get('edit'));
  const editing = Number.isInteger(editId) && editId > 0;
  return (
    <div className="page page--wide-form">
      <Link to={editing ? playlistHref(editId) : Paths.playlist} className="back-link">
        <ArrowLeftIcon size={18} />
        {editing ? 'Back to the playlist' : 'All playlists'}
      </Link>
      <header className="page-header">
        <div className="page-header__text">
          <p className="eyebrow">Your library</p>
          <h1 className="page-title">{editing ? 'Edit smart playlist' : 'New smart playlist'}</h1>
          <p className="page-header__meta">Songs are chosen by your rules, and follow your library as it changes.</p>
        </div>
      </header>
      {editing ? <EditSmart playlistId={editId} /> : <SmartEditor playlist={null} />}
    </div>
  );
}
