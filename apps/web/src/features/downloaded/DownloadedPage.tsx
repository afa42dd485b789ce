import type { Song } from '@tonearm/contract';
import { Link } from 'react-router';
import { Paths } from '../../lib/paths.js';
import { UiMessages } from '../../lib/ui-messages.js';
import { useDownloadedSongs } from '../../lib/useStoredSongLists.js';
import { usePlayerControls } from '../../player/usePlayer.js';
import { CloseIcon, DownloadIcon, PlayIcon } from '../../ui/icons.js';
import type { MenuItem } from '../../ui/MenuButton.js';
import { useAlerts } from '../alerts/useAlerts.js';
import { SongList } from '../songs/SongList.js';
import { removeDownload } from './download-song.js';

/** `/dashboard/downloaded`: the `downloadedSong` list, newest first, playable. */
export function DownloadedPage() {
  const songs = useDownloadedSongs();
  const controls = usePlayerControls();
  const alerts = useAlerts();

  const removeItem = (song: Song): MenuItem[] => [
    {
      label: 'Remove from downloads',
      icon: <CloseIcon size={18} />,
      onSelect: () => {
        void removeDownload(song).then(() => {
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
          <p className="page-header__meta">
            {songs.length} {songs.length === 1 ? 'song' : 'songs'}
          </p>
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
        emptyState={
          <div className="empty-state">
            <span className="empty-state__icon">
              <DownloadIcon size={32} />
            </span>
            <p className="empty-state__title">No downloads yet</p>
            <p>
              Choose Download in a song&apos;s menu to keep it on this device. Browse the{' '}
              <Link to={Paths.songs}>song list</Link> to start.
            </p>
          </div>
        }
      />
    </div>
  );
}
