import { useQuery } from '@tanstack/react-query';
import {
  endpoints,
  mayEditPlaylist,
  PlaylistClientMessages,
  type Playlist,
  type Song,
  type User,
} from '@tonearm/contract';
import { useMemo } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { urlOf } from '../../lib/api.js';
import { describeError, isApiError } from '../../lib/api-client.js';
import { Paths } from '../../lib/paths.js';
import type { SongSource } from '../../lib/song-sources.js';
import { UiMessages } from '../../lib/ui-messages.js';
import { usePlayerControls } from '../../player/usePlayer.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import { isAdmin, useCurrentUser } from '../../shell/auth/useAuth.js';
import { useConfirm } from '../../shell/confirm/useConfirm.js';
import { Cover } from '../../ui/Cover.js';
import { ArrowLeftIcon, CloseIcon, DownloadIcon, EditIcon, PlayIcon, PlusIcon, TrashIcon } from '../../ui/icons.js';
import type { MenuItem } from '../../ui/MenuButton.js';
import { NotFoundState } from '../../ui/NotFoundState.js';
import { StartRadioButton } from '../radio/StartRadioButton.js';
import { PagedSongList } from '../songs/PagedSongList.js';
import { COLUMN_LABELS, filledColumns, sortSongs, useSongOrder } from '../songs/song-order.js';
import { SongSortHeader } from '../songs/SongSortHeader.js';
import { countLabel } from '../songs/SongsHeader.js';
import { usePagedSongs, type PagedSongs } from '../songs/useSongs.js';
import { useDeletePlaylist, useRemoveSongFromPlaylist, useReorderPlaylist } from './mutations.js';
import { editPlaylistHref, PlaylistCard, smartPlaylistHref } from './PlaylistCard.js';
import { playlistQueries } from './queries.js';
import { SortableSongList } from './SortableSongList.js';
import '../../ui/buttons.css';
import '../../ui/empty-state.css';
import '../../ui/notice.css';
import '../../ui/page.css';
import '../../ui/tiles.css';

/** Whether the user may change the playlist: its owner or an administrator, and never one that follows a file. */
function canEdit(user: User, playlist: Playlist | undefined): playlist is Playlist {
  return (
    playlist !== undefined &&
    !playlist.readOnly &&
    mayEditPlaylist(user, { ownerId: playlist.userId, isPublic: playlist.isPublic })
  );
}

function PlaylistGrid() {
  const user = useCurrentUser();
  const playlists = useQuery(playlistQueries.visible());
  const all = playlists.data ?? [];
  // `playlists.list` answers own and public playlists (admins: all): the user's own come first, on their own.
  const mine = isAdmin(user) ? all : all.filter((playlist) => playlist.userId === user.id);
  const shared = isAdmin(user) ? [] : all.filter((playlist) => playlist.userId !== user.id);
  return (
    <div className="page">
      <header className="page-header">
        <div className="page-header__text">
          <p className="eyebrow">{isAdmin(user) ? 'Every playlist on this server' : 'Your library'}</p>
          <h1 className="page-title">Playlists</h1>
          {playlists.isSuccess && (
            <p className="page-header__meta">
              {mine.length} {mine.length === 1 ? 'playlist' : 'playlists'}
            </p>
          )}
        </div>
        <div className="page-header__actions">
          <Link to={Paths.smartPlaylist} className="button button--ghost">
            <PlusIcon size={18} />
            New smart playlist
          </Link>
          <Link to={Paths.createPlaylist} className="button button--primary">
            <PlusIcon size={18} />
            Create playlist
          </Link>
        </div>
      </header>
      {playlists.isPending && <p className="muted">Loading playlists…</p>}
      {playlists.isError && (
        <div className="empty-state">
          <p>Playlists could not be loaded.</p>
          <button type="button" className="button button--ghost" onClick={() => void playlists.refetch()}>
            Try again
          </button>
        </div>
      )}
      {playlists.isSuccess && mine.length === 0 && (
        <div className="empty-state">
          <p className="empty-state__title">No playlists yet</p>
          <p>Create one, then add songs with “Playlist +” in a song&apos;s menu.</p>
        </div>
      )}
      {mine.length > 0 && (
        <ul className="tile-grid" aria-label="Playlists">
          {mine.map((playlist) => (
            <PlaylistCard key={playlist.id} playlist={playlist} />
          ))}
        </ul>
      )}
      {shared.length > 0 && (
        <section className="section" aria-labelledby="public-playlists">
          <h2 id="public-playlists" className="section-title">
            Public playlists
          </h2>
          <ul className="tile-grid" aria-label="Public playlists">
            {shared.map((playlist) => (
              <PlaylistCard key={playlist.id} playlist={playlist} />
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function PlaylistHeader({ playlist, list }: { playlist: Playlist | undefined; list: PagedSongs }) {
  const user = useCurrentUser();
  const controls = usePlayerControls();
  const confirm = useConfirm();
  const alerts = useAlerts();
  const navigate = useNavigate();
  const deletePlaylist = useDeletePlaylist();
  const onDelete = (p: Playlist): void => {
    confirm({
      message: UiMessages.confirmDeletePlaylist(p.name),
      onConfirm: () => {
        deletePlaylist.mutate(p.id, {
          onSuccess: () => {
            alerts.success(`Playlist “${p.name}” deleted`);
            void navigate(Paths.playlist);
          },
          onError: (error) => {
            alerts.error(UiMessages.failedToDeletePlaylist, describeError(error));
          },
        });
      },
    });
  };
  return (
    <header className="page-header page-header--artist">
      <Cover src={playlist?.imgLink ?? null} width={300} className="page-header__art" />
      <div className="page-header__text">
        <p className="eyebrow">
          {playlist?.source
            ? PlaylistClientMessages.fromFileEyebrow
            : playlist
              ? `${playlist.isPublic ? 'Public' : 'Private'} ${playlist.smart ? 'smart playlist' : 'playlist'}`
              : 'Playlist'}
        </p>
        <h1 className="page-title page-title--hero">{playlist?.name ?? 'Playlist'}</h1>
        {playlist && (
          <p className="page-header__meta">
            {playlist.type ? `${playlist.type} · ` : ''}
            {countLabel(list.total ?? playlist.songIds.length)}
          </p>
        )}
        {playlist?.source && <p className="muted">{PlaylistClientMessages.fromFile(playlist.source.path)}</p>}
      </div>
      <div className="page-header__actions">
        <button
          type="button"
          className="play-toggle play-toggle--hero"
          aria-label={`Play ${playlist?.name ?? 'playlist'}`}
          disabled={list.songs.length === 0}
          onClick={() => {
            controls.playFrom({ source: list.source, songs: list.songs, nextCursor: list.paging.nextCursor, index: 0 });
          }}
        >
          <PlayIcon size={26} />
        </button>
        {playlist && (
          <a
            href={urlOf(endpoints.playlists.exportM3u8, { playlistId: playlist.id })}
            download
            className="button button--ghost"
            aria-label={PlaylistClientMessages.exportM3u8Label(playlist.name)}
          >
            <DownloadIcon size={18} />
            {PlaylistClientMessages.exportM3u8}
          </a>
        )}
        <StartRadioButton songs={list.songs} label={playlist?.name ?? 'this playlist'} loading={list.query.isPending} />
        {canEdit(user, playlist) && (
          <>
            <Link
              to={playlist.smart ? smartPlaylistHref(playlist.id) : editPlaylistHref(playlist.id)}
              className="icon-button"
              aria-label={playlist.smart ? `Edit rules of ${playlist.name}` : `Edit playlist ${playlist.name}`}
              title={playlist.smart ? 'Edit rules' : 'Edit'}
            >
              <EditIcon />
            </Link>
            <button
              type="button"
              className="icon-button icon-button--danger"
              aria-label={`Delete playlist ${playlist.name}`}
              title="Delete"
              onClick={() => {
                onDelete(playlist);
              }}
            >
              <TrashIcon />
            </button>
          </>
        )}
      </div>
    </header>
  );
}

/**
 * One playlist's songs, a page at a time. Its owner (or an admin) reorders the whole list, so for them every page
 * loads in turn: the first page shows at once, and the reorder handles come once the list is complete.
 */
function PlaylistDetail({ playlistId }: { playlistId: number }) {
  const user = useCurrentUser();
  const playlist = useQuery(playlistQueries.detail(playlistId));
  const data = playlist.data;
  // A smart playlist's rules choose its songs: none are removed or moved by hand.
  const editable = canEdit(user, data) && data.smart === null;
  const source = useMemo<SongSource>(() => ({ kind: 'playlist', playlistId }), [playlistId]);
  // Issue 26: playlist order, or sorted here over the whole list (every page loads); sorting changes only the view.
  const [order, setOrder] = useSongOrder('playlist');
  const sorted = order.by !== 'list';
  const songs = usePagedSongs(source, { loadAll: editable || sorted });
  const ordering = { kind: 'playlist' as const, order, onChange: setOrder };
  const shown = useMemo(() => sortSongs(songs.songs, order), [songs.songs, order]);
  // A sorted list plays as it is shown, not on through the playlist's pages.
  const shownList = useMemo(
    () => (sorted ? { ...songs, paging: { ...songs.paging, source: undefined, total: undefined } } : songs),
    [sorted, songs],
  );
  const alerts = useAlerts();
  const removeSong = useRemoveSongFromPlaylist();
  const reorder = useReorderPlaylist(playlistId);
  const list = songs.songs;
  const complete = songs.query.isSuccess && !songs.query.hasNextPage;
  const label = `Songs in ${data?.name ?? 'playlist'}`;

  const removeItem = (song: Song): MenuItem[] =>
    editable
      ? [
          {
            label: 'Remove from playlist',
            icon: <CloseIcon size={18} />,
            onSelect: () => {
              removeSong.mutate(
                { playlistId, songId: song.id },
                {
                  onSuccess: (text) => {
                    alerts.success(text);
                  },
                  onError: (error) => {
                    alerts.error(UiMessages.failedToRemoveFromPlaylist, describeError(error));
                  },
                },
              );
            },
          },
        ]
      : [];

  const move = (from: number, to: number): void => {
    const next = [...list];
    const [moved] = next.splice(from, 1);
    if (!moved) return;
    next.splice(to, 0, moved);
    reorder.mutate(next, {
      onError: (error) => {
        alerts.error(UiMessages.failedToReorderPlaylist, describeError(error));
      },
    });
  };

  const emptyState = data?.smart ? (
    <div className="empty-state">
      <p className="empty-state__title">No song matches its rules yet</p>
      {canEdit(user, data) && (
        <p>
          <Link to={smartPlaylistHref(playlistId)}>Change the rules</Link>, or rate, like and play more songs.
        </p>
      )}
    </div>
  ) : (
    <div className="empty-state">
      <p className="empty-state__title">This playlist is empty</p>
      <p>
        Add songs with “Playlist +” in a song&apos;s menu on the <Link to={Paths.songs}>song list</Link>
        {editable && (
          <>
            , or <Link to={editPlaylistHref(playlistId)}>pick songs</Link> in the editor
          </>
        )}
        .
      </p>
    </div>
  );

  if (isApiError(playlist.error, 404)) {
    return (
      <div className="page">
        <NotFoundState
          title="Playlist not found"
          text="It was deleted, or it is private to someone else."
          back={{ to: Paths.playlist, label: 'All playlists' }}
        />
      </div>
    );
  }

  return (
    <div className="page">
      <Link to={Paths.playlist} className="back-link">
        <ArrowLeftIcon size={18} />
        All playlists
      </Link>
      <PlaylistHeader playlist={data} list={songs} />
      {editable && sorted && list.length > 0 && (
        <p className="notice" role="note">
          Sorted by {COLUMN_LABELS[order.by].toLowerCase()}: the playlist keeps its order. Choose “Playlist order” to
          move songs.
        </p>
      )}
      {editable && !sorted && complete && list.length > 0 ? (
        <>
          <SongSortHeader ordering={ordering} label={label} columns={filledColumns(list)} sortable />
          <SortableSongList songs={list} label={label} onMove={move} extraMenuItems={removeItem} />
        </>
      ) : (
        <PagedSongList
          list={shownList}
          songs={shown}
          label={label}
          extraMenuItems={removeItem}
          emptyState={emptyState}
          ordering={ordering}
        />
      )}
    </div>
  );
}

/** `/dashboard/playlist`: the user's playlists (admins: all); `?id=` opens one with its songs. */
export function PlaylistPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  return Number.isInteger(id) && id > 0 ? <PlaylistDetail key={id} playlistId={id} /> : <PlaylistGrid />;
}
