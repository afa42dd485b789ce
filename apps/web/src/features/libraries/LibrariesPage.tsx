import { useQuery } from '@tanstack/react-query';
import { LibraryClientMessages as Texts, RenameLibraryRequest, type Library } from '@tonearm/contract';
import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { Navigate } from 'react-router';
import { describeError, isApiError } from '../../lib/api-client.js';
import { fieldErrorsOf } from '../../lib/field-errors.js';
import { Paths } from '../../lib/paths.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import { isAdmin, useCurrentUser } from '../../shell/auth/useAuth.js';
import { useConfirm } from '../../shell/confirm/useConfirm.js';
import { EditIcon, FolderIcon, TrashIcon } from '../../ui/icons.js';
import { TextField } from '../../ui/TextField.js';
import { AddLibraryForm } from './AddLibraryForm.js';
import { AnalysisStatus } from './AnalysisStatus.js';
import { LibraryAudienceForm } from './LibraryAudienceForm.js';
import { ScanStatus } from './ScanStatus.js';
import {
  useCatalogueChanged,
  usePurgeMissing,
  useRemoveLibrary,
  useRenameLibrary,
  useScanLibrary,
} from './mutations.js';
import { isScanning, libraryQueries } from './queries.js';
import { formatCount, formatWhen } from './library-format.js';
import '../../ui/badge.css';
import '../../ui/buttons.css';
import '../../ui/card.css';
import '../../ui/empty-state.css';
import '../../ui/forms.css';
import '../../ui/page.css';
import './Libraries.css';

/** The inline rename form, in place of the library's name. */
function RenameForm({ library, onDone }: { library: Library; onDone: () => void }) {
  const [name, setName] = useState(library.name);
  const [error, setError] = useState<string | undefined>(undefined);
  const rename = useRenameLibrary();
  const alerts = useAlerts();

  const onSubmit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const parsed = RenameLibraryRequest.safeParse({ name });
    setError(fieldErrorsOf<'name'>(parsed).name);
    if (!parsed.success) return;
    rename.mutate(
      { libraryId: library.id, name: parsed.data.name },
      {
        onSuccess: (renamed) => {
          alerts.success(Texts.renamed(renamed.name));
          onDone();
        },
        onError: (failure) => {
          if (isApiError(failure) && failure.field === 'name') setError(failure.message);
          else alerts.error(Texts.failedToRename, describeError(failure));
        },
      },
    );
  };

  return (
    <form className="library-rename" aria-label={`${Texts.rename} ${library.name}`} noValidate onSubmit={onSubmit}>
      <TextField
        label={Texts.newName}
        name="name"
        autoComplete="off"
        autoFocus
        required
        value={name}
        onValue={setName}
        error={error}
      />
      <div className="library-rename__actions">
        <button type="submit" className="button button--primary button--small" disabled={rename.isPending}>
          {Texts.save}
        </button>
        <button type="button" className="button button--ghost button--small" onClick={onDone}>
          {Texts.cancel}
        </button>
      </div>
    </form>
  );
}

function LibraryActions({
  library,
  onRename,
  onAccess,
}: {
  library: Library;
  onRename: () => void;
  onAccess: () => void;
}) {
  const scan = useScanLibrary();
  const purge = usePurgeMissing();
  const remove = useRemoveLibrary();
  const alerts = useAlerts();
  const confirm = useConfirm();
  const busy = scan.isPending || purge.isPending || remove.isPending;

  const onRescan = (): void => {
    scan.mutate(library.id, {
      onSuccess: (scanned) => {
        alerts.success(Texts.scanStarted(scanned.name));
      },
      onError: (error) => {
        alerts.error(Texts.failedToScan, describeError(error));
      },
    });
  };
  const onPurge = (): void => {
    confirm({
      message: Texts.confirmPurge(library.name, library.missingCount),
      onConfirm: () => {
        purge.mutate(library.id, {
          onSuccess: () => {
            alerts.success(Texts.purged(library.name));
          },
          onError: (error) => {
            alerts.error(Texts.failedToPurge, describeError(error));
          },
        });
      },
    });
  };
  const onRemove = (): void => {
    confirm({
      message: Texts.confirmRemove(library.name, library.songCount),
      onConfirm: () => {
        remove.mutate(library.id, {
          onSuccess: () => {
            alerts.success(Texts.removed(library.name));
          },
          onError: (error) => {
            alerts.error(Texts.failedToRemove, describeError(error));
          },
        });
      },
    });
  };

  return (
    <div className="library__actions">
      <button
        type="button"
        className="button button--ghost button--small"
        disabled={busy || isScanning(library)}
        aria-label={`${Texts.rescan} ${library.name}`}
        onClick={onRescan}
      >
        {Texts.rescan}
      </button>
      <button
        type="button"
        className="button button--ghost button--small"
        disabled={busy}
        aria-label={`${Texts.rename} ${library.name}`}
        onClick={onRename}
      >
        <EditIcon size={16} /> {Texts.rename}
      </button>
      <button
        type="button"
        className="button button--ghost button--small"
        disabled={busy}
        aria-label={`${Texts.whoSees}: ${library.name}`}
        onClick={onAccess}
      >
        {Texts.whoSees}
      </button>
      {library.missingCount > 0 && (
        <button
          type="button"
          className="button button--ghost button--small"
          disabled={busy}
          aria-label={`${Texts.purgeMissing} of ${library.name}`}
          onClick={onPurge}
        >
          {Texts.purgeMissing}
        </button>
      )}
      <button
        type="button"
        className="button button--ghost button--small library__remove"
        disabled={busy}
        aria-label={`${Texts.remove} ${library.name}`}
        onClick={onRemove}
      >
        <TrashIcon size={16} /> {Texts.remove}
      </button>
    </div>
  );
}

function LibraryCard({ library }: { library: Library }) {
  const [renaming, setRenaming] = useState(false);
  const [choosing, setChoosing] = useState(false);
  const titleId = useId();
  return (
    <li className="card library" aria-labelledby={titleId}>
      <div className="library__head">
        <FolderIcon className="library__icon" />
        <div className="library__title">
          <h2 id={titleId} className="library__name">
            {library.name}
          </h2>
          <p className="library__path">{library.path}</p>
          <p className="library__audience">
            {library.everyone ? Texts.seenByEveryone : Texts.seenByChosen(library.members.length)}
          </p>
        </div>
      </div>
      {renaming && (
        <RenameForm
          library={library}
          onDone={() => {
            setRenaming(false);
          }}
        />
      )}
      <dl className="library__stats">
        <div>
          <dt>{Texts.songs}</dt>
          <dd>{formatCount(library.songCount)}</dd>
        </div>
        <div>
          <dt>{Texts.missing}</dt>
          <dd>{formatCount(library.missingCount)}</dd>
        </div>
        <div>
          <dt>{Texts.lastScanned}</dt>
          <dd>{library.lastScannedAt === null ? Texts.neverScanned : formatWhen(library.lastScannedAt)}</dd>
        </div>
      </dl>
      {choosing && (
        <LibraryAudienceForm
          library={library}
          onDone={() => {
            setChoosing(false);
          }}
        />
      )}
      {library.scan !== null && <ScanStatus library={library} scan={library.scan} />}
      <LibraryActions
        library={library}
        onRename={() => {
          setRenaming(true);
        }}
        onAccess={() => {
          setChoosing(true);
        }}
      />
    </li>
  );
}

/** Scans change the catalogue: when one ends, the song lists, artists and albums are read again. */
function useCatalogueRefreshAfterScans(libraries: readonly Library[]): void {
  const catalogueChanged = useCatalogueChanged();
  const running = libraries
    .filter(isScanning)
    .map((library) => library.id)
    .join(',');
  const before = useRef(running);
  useEffect(() => {
    const now = running.split(',');
    const ended = before.current.split(',').some((id) => id !== '' && !now.includes(id));
    before.current = running;
    if (ended) catalogueChanged();
  }, [running, catalogueChanged]);
}

function LibraryList() {
  const list = useQuery(libraryQueries.list());
  const libraries = list.data?.libraries ?? [];
  useCatalogueRefreshAfterScans(libraries);
  if (list.isPending) return <p className="muted">{Texts.loading}</p>;
  if (list.isError) return <p className="empty-state">{Texts.failedToLoad}</p>;
  if (libraries.length === 0) return <p className="empty-state empty-state--compact">{Texts.noLibraries}</p>;
  return (
    <ul className="library-list" aria-label={Texts.pageTitle}>
      {libraries.map((library) => (
        <LibraryCard key={library.id} library={library} />
      ))}
    </ul>
  );
}

/**
 * `/dashboard/libraries`: the administrator's music folders on the server, read in place: each with its counts, its
 * running scan's progress (polled) or last report, and its actions; the form that adds one; and the progress of the
 * background audio analysis of their songs.
 */
export function LibrariesPage() {
  const user = useCurrentUser();
  const addTitleId = useId();
  // Others are sent home: the navigation never offers this page to them.
  if (!isAdmin(user)) return <Navigate to={Paths.dashboard} replace />;
  return (
    <div className="page page--narrow libraries-page">
      <header className="page-header">
        <div className="page-header__text">
          <p className="eyebrow">Administration</p>
          <h1 className="page-title">{Texts.pageTitle}</h1>
          <p className="page-header__meta">{Texts.pageIntro}</p>
        </div>
      </header>
      <section className="card library-add-card" aria-labelledby={addTitleId}>
        <h2 id={addTitleId} className="section-title">
          {Texts.addTitle}
        </h2>
        <AddLibraryForm />
      </section>
      <section className="section">
        <LibraryList />
      </section>
      <AnalysisStatus />
    </div>
  );
}
