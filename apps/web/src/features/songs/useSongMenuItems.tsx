import { ClientMessages, type Song } from '@tonearm/contract';
import { usePlayerControls } from '../../player/usePlayer.js';
import { isAdmin, useCurrentUser } from '../../shell/auth/useAuth.js';
import { DownloadIcon, EditIcon, InfoIcon, NextIcon, PlaylistAddIcon, QueueIcon, TrashIcon } from '../../ui/icons.js';
import { RadioIcon } from '../../ui/discovery-icons.js';
import { useStartRadio } from '../radio/useStartRadio.js';
import type { MenuItem } from '../../ui/MenuButton.js';
import { useSongActions, type SongActionOrigin } from './useSongActions.js';

/**
 * SPEC §2 song menu: Edit and Delete for administrators only, "Playlist +" and Download for everyone; Details (issue
 * 25: the song's artists and credits) and the queue entries (Play next, Add to queue, Start radio) follow; Delete
 * comes last.
 */
export function useSongMenuItems(song: Song, origin: SongActionOrigin = {}, extra: MenuItem[] = []): MenuItem[] {
  const user = useCurrentUser();
  const actions = useSongActions();
  const player = usePlayerControls();
  const startRadio = useStartRadio();
  const admin = isAdmin(user);
  const editItems: MenuItem[] = admin
    ? [{ label: 'Edit', icon: <EditIcon size={18} />, onSelect: () => actions.edit(song, origin) }]
    : [];
  // Delete comes last, set apart by a line (issue 26: on a phone it sat right under Edit).
  const deleteItems: MenuItem[] = admin
    ? [{ label: 'Delete', icon: <TrashIcon size={18} />, tone: 'danger', onSelect: () => actions.remove(song) }]
    : [];
  return [
    ...editItems,
    {
      label: ClientMessages.playlistPlus,
      icon: <PlaylistAddIcon size={18} />,
      onSelect: () => actions.addToPlaylist(song),
    },
    { label: 'Download', icon: <DownloadIcon size={18} />, onSelect: () => actions.download(song) },
    { label: 'Details', icon: <InfoIcon size={18} />, onSelect: () => actions.details(song) },
    { label: 'Play next', icon: <NextIcon size={18} />, onSelect: () => player.playNext(song) },
    { label: 'Add to queue', icon: <QueueIcon size={18} />, onSelect: () => player.addToQueue(song) },
    // Issue 28: an endless queue of songs like this one.
    { label: 'Start radio', icon: <RadioIcon size={18} />, onSelect: () => startRadio([song.id], song.name) },
    ...extra,
    ...deleteItems,
  ];
}
