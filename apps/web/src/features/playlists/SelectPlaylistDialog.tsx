import { useQuery } from '@tanstack/react-query';
import { ClientMessages, PLAYLIST_POPUP_CLOSE_MS, type Song } from '@tonearm/contract';
import { useEffect, useEffectEvent, useState, type SubmitEvent } from 'react';
import { Link } from 'react-router';
import { describeError } from '../../lib/api-client.js';
import { Paths } from '../../lib/paths.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import { useCurrentUser } from '../../shell/auth/useAuth.js';
import { Cover } from '../../ui/Cover.js';
import { Dialog } from '../../ui/Dialog.js';
import { RouteLoader } from '../../ui/RouteLoader.js';
import { UiMessages } from '../../lib/ui-messages.js';
import { useAddSongsToPlaylist, useAddSongToPlaylist } from './mutations.js';
import { playlistQueries } from './queries.js';
import '../../ui/Dialog.css';
import '../../ui/buttons.css';
import '../../ui/empty-state.css';
import '../../ui/forms.css';
import './SelectPlaylistDialog.css';

/** A song's "Playlist +", or (issue 12) an album's "Add album to playlist": its songs, in order. */
export type SelectPlaylistDialogProps = { onClose: () => void } & (
  { song: Song; album?: undefined } | { album: { name: string; songs: readonly Song[] }; song?: undefined }
);

/**
 * SPEC §2 "Select a Playlist" popup. Admins choose among all playlists, others among their own. One click (or Enter)
 * on a playlist adds to it at once (issue 26); the arrow keys move the choice, which "Add to playlist" confirms, and
 * that button with nothing chosen says "Please select a playlist." (SPEC §5). After the
 * add answers (either way) the popup closes PLAYLIST_POPUP_CLOSE_MS later, leaving the alert readable. For an album
 * every song goes in, in order; those already in the playlist are skipped, and the alert says how many went in.
 */
export function SelectPlaylistDialog({ song, album, onClose }: SelectPlaylistDialogProps) {
  const user = useCurrentUser();
  const alerts = useAlerts();
  const playlists = useQuery(playlistQueries.forPicker(user));
  const addOne = useAddSongToPlaylist();
  const addAll = useAddSongsToPlaylist();
  const adding = addOne.isPending || addAll.isPending;
  const [selected, setSelected] = useState<number | null>(null);
  const [finished, setFinished] = useState(false);
  const closeNow = useEffectEvent(onClose);

  useEffect(() => {
    if (!finished) return;
    const timer = setTimeout(() => {
      closeNow();
    }, PLAYLIST_POPUP_CLOSE_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [finished]);

  const add = (playlistId: number): void => {
    if (adding || finished) return;
    setSelected(playlistId);
    const settled = {
      onError: (error: Error) => {
        alerts.error(ClientMessages.failedToAddSongToPlaylist, describeError(error));
      },
      onSettled: () => {
        setFinished(true);
      },
    };
    if (album === undefined) {
      addOne.mutate(
        { playlistId, songId: song.id },
        {
          ...settled,
          onSuccess: (text) => {
            alerts.success(text);
          },
        },
      );
      return;
    }
    addAll.mutate(
      { playlistId, songIds: album.songs.map((track) => track.id) },
      {
        ...settled,
        onSuccess: ({ added, alreadyThere }) => {
          alerts.success(UiMessages.albumAddedToPlaylist(added, alreadyThere));
        },
      },
    );
  };

  // The form's own path (its "Add to playlist" button): the playlist chosen with the keyboard, or none (SPEC §5).
  const onSubmit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (selected === null) alerts.error(ClientMessages.selectPlaylist);
    else add(selected);
  };

  const busy = adding || finished;
  const list = playlists.data ?? [];

  return (
    <Dialog title={ClientMessages.selectPlaylistTitle} onClose={onClose} size="sm">
      <form className="form" noValidate onSubmit={onSubmit}>
        <p className="dialog__subtitle">
          {album === undefined ? (
            <>
              Add <strong>{song.name}</strong> to one of your playlists.
            </>
          ) : (
            <>
              Add the {album.songs.length} {album.songs.length === 1 ? 'song' : 'songs'} of{' '}
              <strong>{album.name}</strong> to one of your playlists.
            </>
          )}
        </p>
        {playlists.isPending && <RouteLoader label="Loading playlists" />}
        {playlists.isError && (
          <div className="empty-state empty-state--compact">
            <p>Your playlists could not be loaded.</p>
            <button type="button" className="button button--ghost" onClick={() => void playlists.refetch()}>
              Try again
            </button>
          </div>
        )}
        {playlists.isSuccess && list.length === 0 && (
          <div className="empty-state empty-state--compact">
            <p className="empty-state__title">{ClientMessages.playlistNotFound}</p>
            <Link to={Paths.createPlaylist} className="button button--ghost" onClick={onClose}>
              Create a playlist
            </Link>
          </div>
        )}
        {list.length > 0 && (
          <fieldset className="choice-list" disabled={busy}>
            <legend className="visually-hidden">Playlists</legend>
            {list.map((playlist) => (
              <label key={playlist.id} className="choice">
                <input
                  type="radio"
                  name="playlist"
                  value={playlist.id}
                  checked={selected === playlist.id}
                  onChange={() => {
                    if (!busy) setSelected(playlist.id);
                  }}
                  onClick={(event) => {
                    // A click adds at once (issue 26); the arrow keys' clicks (detail 0) only move the choice.
                    if (event.detail > 0) add(playlist.id);
                  }}
                  onKeyDown={(event) => {
                    if (event.key !== 'Enter') return;
                    event.preventDefault();
                    add(playlist.id);
                  }}
                />
                <Cover src={playlist.imgLink} width={64} className="choice__cover" />
                <span className="choice__text">
                  <span className="choice__name">{playlist.name}</span>
                  <span className="choice__meta">
                    {playlist.type || 'Playlist'} · {playlist.songIds.length}{' '}
                    {playlist.songIds.length === 1 ? 'song' : 'songs'}
                  </span>
                </span>
              </label>
            ))}
          </fieldset>
        )}
        <div className="dialog__actions">
          <button type="button" className="button button--ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={busy || list.length === 0}>
            {adding ? 'Adding…' : 'Add to playlist'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
