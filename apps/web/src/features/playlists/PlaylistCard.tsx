import type { Playlist } from '@tonearm/contract';
import { Link } from 'react-router';
import { Paths } from '../../lib/paths.js';
import { Cover } from '../../ui/Cover.js';
import '../../ui/tiles.css';

export function playlistHref(playlistId: number): string {
  return `${Paths.playlist}?id=${playlistId}`;
}

/** The create-playlist page in edit mode. */
export function editPlaylistHref(playlistId: number): string {
  return `${Paths.createPlaylist}?edit=${playlistId}`;
}

/** Issue 28: a smart playlist's rules editor. */
export function smartPlaylistHref(playlistId: number): string {
  return `${Paths.smartPlaylist}?edit=${playlistId}`;
}

export function PlaylistCard({ playlist }: { playlist: Playlist }) {
  const count = playlist.songIds.length;
  return (
    <li className="tile">
      <Link to={playlistHref(playlist.id)} className="tile__link" aria-label={playlist.name}>
        <span className="tile__art">
          <Cover src={playlist.imgLink} width={300} className="tile__cover" />
        </span>
        <span className="tile__text">
          <span className="tile__name">{playlist.name}</span>
          <span className="tile__meta">
            {playlist.type || 'Playlist'} · {count} {count === 1 ? 'song' : 'songs'}
          </span>
        </span>
      </Link>
    </li>
  );
}
