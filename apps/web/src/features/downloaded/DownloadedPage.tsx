import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Song } from '@tonearm/contract';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { formatBytes } from '../../lib/format-bytes.js';
import { Paths } from '../../lib/paths.js';
import { UiMessages } from '../../lib/ui-messages.js';
import { useDownloadedSongs } from '../../lib/useStoredSongLists.js';
import { usePlayerControls } from '../../player/usePlayer.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import { useCurrentUser } from '../../shell/auth/useAuth.js';
import { CloseIcon, DownloadIcon, PlayIcon } from '../../ui/icons.js';
import type { MenuItem } from '../../ui/MenuButton.js';
import { SongList } from '../songs/SongList.js';
import { removeDownload } from './download-song.js';
import { downloadKeys, downloadQueries } from './queries.js';
import '../../ui/buttons.css';
import '../../ui/empty-state.css';
import '../../ui/page.css';

function summary(count: number, bytes: number | null): string {
  const songs = `${count} ${count === 1 ? 'song' : 'songs'}`;
  return bytes === null ? songs : `${songs} · ${formatBytes(bytes)} on this device`;
}

/** `/dashboard/downloaded`: the `downloadedSong` list, newest first, with the space each takes; plays offline. */
export function DownloadedPage() {
  const songs = useDownloadedSongs();
  const { id: userId } = useCurrentUser();
  const controls = usePlayerControls();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const links = useMemo(() => songs.map((song) => song.link), [songs]);
  const sizes = useQuery(downloadQueries.sizes(userId, links));

  const total = sizes.data ? [...sizes.data.values()].reduce<number>((sum, size) => sum + (size ?? 0), 0) : null;
  const detail = (song: Song): string | undefined => {
    if (!sizes.data) return undefined;
    const size = sizes.data.get(song.link);
    return size === null || size === undefined ? 'Not stored' : formatBytes(size);
  };

  const removeItem = (song: Song): MenuItem[] => [
    {
      label: 'Remove from downloads',
      icon: <CloseIcon size={18} />,
      onSelect: () => {
        void removeDownload(song).then(() => {
          void queryClient.invalidateQueries({ queryKey: downloadKeys.all });
          alerts.success(UiMessages.removedDownload(song.name));
        });
      },
    },
  ];

  return (
    <div className="page">
      <header className="page-header">
        <div className="page-header__text">
          <p className="eyebrow">On this device</p>
          <h1 className="page-title">Downloaded</h1>
          <p className="page-header__meta">{summary(songs.length, total)}</p>
        </div>
        <button
          type="button"
          className="play-toggle play-toggle--hero"
          aria-label="Play downloaded songs"
          disabled={songs.length === 0}
          onClick={() => {
            controls.playList(songs, 0);
          }}
        >
          <PlayIcon size={26} />
        </button>
      </header>
      <SongList
        songs={songs}
        label="Downloaded songs"
        extraMenuItems={removeItem}
        detail={detail}
        emptyState={
          <div className="empty-state">
            <span className="empty-state__icon">
              <DownloadIcon size={32} />
            </span>
            <p className="empty-state__title">No downloads yet</p>
            <p>
              Choose Download in a song&apos;s menu to keep it on this device and play it without a connection. Browse
              the <Link to={Paths.songs}>song list</Link> to start.
            </p>
          </div>
        }
      />
    </div>
  );
}
