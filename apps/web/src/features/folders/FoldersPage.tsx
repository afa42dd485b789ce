import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { FolderClientMessages as Texts, type Folder, type Song } from '@tonearm/contract';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { isApiError } from '../../lib/api-client.js';
import { Paths } from '../../lib/paths.js';
import { usePlayerControls } from '../../player/usePlayer.js';
import { Cover } from '../../ui/Cover.js';
import { LoadMore } from '../../ui/LoadMore.js';
import { FolderIcon, PlayIcon } from '../../ui/icons.js';
import { SongRow } from '../songs/SongRow.js';
import { folderQueries } from './queries.js';
import '../../ui/buttons.css';
import '../../ui/empty-state.css';
import '../../ui/page.css';
import '../../ui/skeleton.css';
import './FoldersPage.css';

/** The link to a folder of a library ('' its root). */
export function folderHref(libraryId: number, path: string): string {
  const query = new URLSearchParams({ library: String(libraryId) });
  if (path !== '') query.set('path', path);
  return `${Paths.folders}?${query.toString()}`;
}

function Problem({ title, onRetry }: { title: string; onRetry?: () => void }) {
  return (
    <div className="empty-state">
      <h1 className="empty-state__title">{title}</h1>
      {onRetry ? (
        <button type="button" className="button button--ghost" onClick={onRetry}>
          {Texts.tryAgain}
        </button>
      ) : (
        <Link to={Paths.folders} className="button button--ghost">
          {Texts.backToFolders}
        </Link>
      )}
    </div>
  );
}

/** `/dashboard/folders`: the libraries the user sees. */
function LibraryList() {
  const libraries = useQuery(folderQueries.libraries({ alertOnError: true }));
  if (libraries.isError) return <Problem title={Texts.failedToLoad} onRetry={() => void libraries.refetch()} />;
  if (!libraries.data) return <p className="folders__loading">{Texts.loading}</p>;
  const list = libraries.data.libraries;
  return (
    <>
      <header className="page-header">
        <div className="page-header__text">
          <h1 className="page-title">{Texts.pageTitle}</h1>
          <p className="page-header__meta">{Texts.pageIntro}</p>
        </div>
      </header>
      {list.length === 0 ? (
        <div className="empty-state">
          <p>{Texts.noLibraries}</p>
        </div>
      ) : (
        <ul className="folder-list" aria-label={Texts.pageTitle}>
          {list.map((library) => (
            <li key={library.id}>
              <Link to={folderHref(library.id, '')} className="folder-row">
                <span className="folder-row__icon" aria-hidden="true">
                  <FolderIcon size={22} />
                </span>
                <span className="folder-row__name">{library.name}</span>
                <span className="folder-row__count">{Texts.songCount(library.songCount)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** Folders › library › each folder down to this one (the last is the current page). */
function Breadcrumbs({ folder }: { folder: Folder }) {
  const parts = folder.path === '' ? [] : folder.path.split('/');
  const crumbs = [
    { label: folder.libraryName, path: '' },
    ...parts.map((part, index) => ({ label: part, path: parts.slice(0, index + 1).join('/') })),
  ];
  return (
    <nav aria-label={Texts.breadcrumb} className="breadcrumbs">
      <ol>
        <li>
          <Link to={Paths.folders}>{Texts.pageTitle}</Link>
        </li>
        {crumbs.map((crumb, index) =>
          index === crumbs.length - 1 ? (
            <li key={crumb.path}>
              <span aria-current="page">{crumb.label}</span>
            </li>
          ) : (
            <li key={crumb.path}>
              <Link to={folderHref(folder.libraryId, crumb.path)}>{crumb.label}</Link>
            </li>
          ),
        )}
      </ol>
    </nav>
  );
}

/** One folder: its subfolders, then its songs as a song list, and "Play folder" (all its songs, in order). */
function FolderView({ libraryId, path }: { libraryId: number; path: string }) {
  const folder = useInfiniteQuery(folderQueries.folder(libraryId, path));
  const controls = usePlayerControls();
  const [starting, setStarting] = useState(false);
  if (isApiError(folder.error, 404, 400)) return <Problem title={Texts.notFound} />;
  const pages = folder.data?.pages;
  const first = pages?.[0];
  if (!pages || !first) {
    if (folder.isError) return <Problem title={Texts.failedToLoad} onRetry={() => void folder.refetch()} />;
    return <p className="folders__loading">{Texts.loading}</p>;
  }
  const subfolders = pages.flatMap((page) => page.folders);
  const songs: Song[] = pages.flatMap((page) => page.songs);

  /** Plays every song of the folder: the pages not loaded yet are fetched first. */
  async function playFolder() {
    setStarting(true);
    try {
      let result = folder;
      while (result.hasNextPage) {
        result = await result.fetchNextPage();
        if (result.isError) return;
      }
      const all = (result.data?.pages ?? []).flatMap((page) => page.songs);
      if (all.length > 0) controls.playList(all, 0);
    } finally {
      setStarting(false);
    }
  }

  return (
    <>
      <Breadcrumbs folder={first} />
      <header className="page-header">
        <div className="page-header__text">
          <h1 className="page-title">{first.name}</h1>
          <p className="page-header__meta">
            {Texts.folderCount(first.folderCount)} · {Texts.songCount(first.songCount)}
          </p>
        </div>
        <div className="page-header__actions">
          <button
            type="button"
            className="button button--primary"
            disabled={first.songCount === 0 || starting}
            onClick={() => void playFolder()}
          >
            <PlayIcon size={18} />
            {Texts.playFolder}
          </button>
        </div>
      </header>
      {subfolders.length === 0 && songs.length === 0 ? (
        <div className="empty-state">
          <p>{Texts.empty}</p>
        </div>
      ) : null}
      {subfolders.length > 0 && (
        <section className="section" aria-label={Texts.subfolders}>
          <ul className="folder-list" aria-label={Texts.subfolders}>
            {subfolders.map((sub) => (
              <li key={sub.path}>
                <Link to={folderHref(libraryId, sub.path)} className="folder-row">
                  {sub.imgLink === '' ? (
                    <span className="folder-row__icon" aria-hidden="true">
                      <FolderIcon size={22} />
                    </span>
                  ) : (
                    <Cover src={sub.imgLink} width={64} className="folder-row__cover" />
                  )}
                  <span className="folder-row__name">{sub.name}</span>
                  <span className="folder-row__count">{Texts.songCount(sub.songCount)}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
      {songs.length > 0 && (
        <section className="section" aria-label={Texts.songs}>
          <div role="list" aria-label={Texts.songs} className="folder-songs">
            {songs.map((song, index) => (
              <SongRow key={song.id} song={song} list={songs} position={index + 1} setSize={first.songCount} />
            ))}
          </div>
        </section>
      )}
      {folder.hasNextPage && (
        <LoadMore
          label={Texts.showMore}
          loading={folder.isFetchingNextPage}
          failed={folder.isFetchNextPageError}
          onLoad={() => void folder.fetchNextPage()}
        />
      )}
    </>
  );
}

/** `/dashboard/folders[?library=&path=]`: the libraries, or one folder of one of them (issue 25). */
export function FoldersPage() {
  const [params] = useSearchParams();
  const library = params.get('library');
  const libraryId = Number(library);
  const valid = Number.isSafeInteger(libraryId) && libraryId > 0;
  return (
    <div className="page folders">
      {library === null ? (
        <LibraryList />
      ) : valid ? (
        <FolderView libraryId={libraryId} path={params.get('path') ?? ''} />
      ) : (
        <Problem title={Texts.notFound} />
      )}
    </div>
  );
}
