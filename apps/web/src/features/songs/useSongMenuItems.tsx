import { ClientMessages, type Song } from '@tonearm/contract';
import { usePlayerControls } from '../../player/usePlayer.js';
import { isAdmin, useCurrentUser } from '../../shell/auth/useAuth.js';
import { DownloadIcon, EditIcon, InfoIcon, NextIcon, PlaylistAddIcon, QueueIcon, TrashIcon } from '../../ui/icons.js';
import type { MenuItem } from '../../ui/MenuButton.js';
import { useSongActions, type SongActionOrigin } from './useSongActions.js';

/**
 * SPEC §2 song menu: Edit and Delete for administrators only, then "Playlist +" and Download for everyone; Details
 * (issue 25: the song's artists and credits) and the queue entries (Play next, Add to queue) follow.
 */
export function useSongMenuItems(song: Song, origin: SongActionOrigin = {}, extra: MenuItem[] = []): MenuItem[] {
  const user = useCurrentUser();
  const actions = useSongActions();
  const player = usePlayerControls();
  const adminItems: MenuItem[] = isAdmin(user)
    ? [
        { label: 'Edit', icon: <EditIcon size={18} />, onSelect: () => actions.edit(song, origin) },
        { label: 'Delete', icon: <TrashIcon size={18} />, tone: 'danger', onSelect: () => actions.remove(song) },
      ]
    : [];
  return [
    ...adminItems,
    {
      label: ClientMessages.playlistPlus,
      icon: <PlaylistAddIcon size={18} />,
      onSelect: () => actions.addToPlaylist(song),
    },
    { label: 'Download', icon: <DownloadIcon size={18} />, onSelect: () => actions.download(song) },
    { label: 'Details', icon: <InfoIcon size={18} />, onSelect: () => actions.details(song) },
    { label: 'Play next', icon: <NextIcon size={18} />, onSelect: () => player.playNext(song) },
    { label: 'Add to queue', icon: <QueueIcon size={18} />, onSelect: () => player.addToQueue(song) },
    ...extra,
  ];
}
