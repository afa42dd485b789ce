import { useQuery } from '@tanstack/react-query';
import type { Playlist, Song } from '@tonearm/contract';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { describeError } from '../../lib/api-client.js';
import { Paths } from '../../lib/paths.js';
import { UiMessages } from '../../lib/ui-messages.js';
import { usePlayerControls } from '../../player/usePlayer.js';
import { Cover } from '../../ui/Cover.js';
import { ArrowLeftIcon, CloseIcon, PlayIcon, PlusIcon, TrashIcon } from '../../ui/icons.js';
import type { MenuItem } from '../../ui/MenuButton.js';
import { useAlerts } from '../alerts/useAlerts.js';
import { isAdmin, useCurrentUser } from '../auth/useAuth.js';
import { useConfirm } from '../confirm/useConfirm.js';
import { songQueries } from '../songs/queries.js';
import { listStatus, SongList } from '../songs/SongList.js';
import { useDeletePlaylist, useRemoveSongFromPlaylist } from './mutations.js';
import { PlaylistCard } from './PlaylistCard.js';
import { playlistQueries } from './queries.js';

function PlaylistGrid() {
  const playlists = useQuery(playlistQueries.visible());
  const list = playlists.data ?? [];
  return (
    <div className="page">
      <header className="page-header">
        <div className="page-header__text">
          <p className="eyebrow">Your library</p>
          <h1 className="page-title">Playlists</h1>
        </div>
        <Link to={Paths.createPlaylist} className="button button--primary">
          <PlusIcon size={18} />
          Create playlist
        </Link>
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
      {playlists.isSuccess && list.length === 0 && (
        <div className="empty-state">
          <p className="empty-state__title">No playlists yet</p>
          <p>Create one, then add songs with “Playlist +” in a song&apos;s menu.</p>
        </div>
      )}
      {list.length > 0 && (
        <ul className="tile-grid" aria-label="Playlists">
          {list.map((playlist) => (
            <PlaylistCard key={playlist.id} playlist={playlist} />
          ))}
        </ul>
      )}
    </div>
  );
}

function PlaylistDetail({ playlistId }: { playlistId: number }) {
  const user = useCurrentUser();
  const playlist = useQuery(playlistQueries.detail(playlistId));
  const songs = useQuery(songQueries.playlist(playlistId));
  const controls = usePlayerControls();
  const confirm = useConfirm();
  const alerts = useAlerts();
  const navigate = useNavigate();
  const removeSong = useRemoveSongFromPlaylist();
  const deletePlaylist = useDeletePlaylist();
  const canEdit = (p: Playlist | undefined): boolean => p !== undefined && (p.userId === user.id || isAdmin(user));
  const list = songs.data ?? [];

  const removeItem = (song: Song): MenuItem[] =>
    canEdit(playlist.data)
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

  const onDelete = (p: Playlist): void => {
    confirm({
      message: UiMessages.confirmDeletePlaylist(p.name),
      onConfirm: () => {
        deletePlaylist.mutate(p.id, {
          onSuccess: () => {
            void navigate(Paths.playlist);
          },
          onError: (error) => {
            alerts.error(UiMessages.failedToDeletePlaylist, describeError(error));
          },
        });
      },
    });
  };

  const data = playlist.data;
  return (
    <div className="page">
      <Link to={Paths.playlist} className="back-link">
        <ArrowLeftIcon size={18} />
        All playlists
      </Link>
      <header className="page-header page-header--artist">
        <Cover src={data?.imgLink ?? null} width={300} className="page-header__art" />
        <div className="page-header__text">
          <p className="eyebrow">{data ? `${data.isPublic ? 'Public' : 'Private'} playlist` : 'Playlist'}</p>
          <h1 className="page-title page-title--hero">{data?.name ?? 'Playlist'}</h1>
          {data && (
            <p className="page-header__meta">
              {data.type ? `${data.type} · ` : ''}
              {list.length} {list.length === 1 ? 'song' : 'songs'}
            </p>
          )}
        </div>
        <div className="page-header__actions">
          <button
            type="button"
            className="play-toggle play-toggle--hero"
            aria-label={`Play ${data?.name ?? 'playlist'}`}
            disabled={list.length === 0}
            onClick={() => {
              controls.playList(list, 0);
            }}
          >
            <PlayIcon size={26} />
          </button>
          {data && canEdit(data) && (
            <button
              type="button"
              className="icon-button"
              aria-label={`Delete playlist ${data.name}`}
              onClick={() => {
                onDelete(data);
              }}
            >
              <TrashIcon />
            </button>
          )}
        </div>
      </header>
      <SongList
        songs={list}
        label={`Songs in ${data?.name ?? 'playlist'}`}
        status={listStatus(songs)}
        extraMenuItems={removeItem}
        onRetry={() => void songs.refetch()}
        emptyState={
          <div className="empty-state">
            <p className="empty-state__title">This playlist is empty</p>
            <p>
              Add songs with “Playlist +” in a song&apos;s menu on the <Link to={Paths.songs}>song list</Link>.
            </p>
          </div>
        }
      />
    </div>
  );
}

/** `/dashboard/playlist`: the visible playlists; `?id=` shows one playlist with its songs. */
export function PlaylistPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  return Number.isInteger(id) && id > 0 ? <PlaylistDetail key={id} playlistId={id} /> : <PlaylistGrid />;
}
