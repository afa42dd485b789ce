import { ClientMessages, type Song } from '@tonearm/contract';
import { useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { downloadSong } from '../features/downloaded/download-song.js';
import { premiumRequiredState } from '../features/payment/payment-reason.js';
import { SelectPlaylistDialog } from '../features/playlists/SelectPlaylistDialog.js';
import { useDeleteSong } from '../features/songs/mutations.js';
import { SongDetailsDialog } from '../features/songs/SongDetailsDialog.js';
import { SongFormDialog } from '../features/songs/SongFormDialog.js';
import { SongActionsContext, type SongActionOrigin, type SongActions } from '../features/songs/useSongActions.js';
import { describeError, isApiError } from '../lib/api-client.js';
import { Paths } from '../lib/paths.js';
import { UiMessages } from '../lib/ui-messages.js';
import { useAlerts } from '../shell/alerts/useAlerts.js';
import { canDownload, useAuth } from '../shell/auth/useAuth.js';
import { useConfirm } from '../shell/confirm/useConfirm.js';

type OpenDialog =
  | { kind: 'form'; song: Song | undefined; origin: SongActionOrigin }
  | { kind: 'playlist'; song: Song }
  | { kind: 'details'; song: Song }
  | null;

/** One set of song dialogs for the whole dashboard; rows, tiles and pages only ask for an action. */
export function SongActionsProvider({ children }: { children: ReactNode }) {
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const alerts = useAlerts();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const { user } = useAuth();
  const { mutate: deleteSong } = useDeleteSong();
  const mayDownload = canDownload(user);

  const actions = useMemo<SongActions>(
    () => ({
      add: (origin = {}) => {
        setDialog({ kind: 'form', song: undefined, origin });
      },
      edit: (song, origin = {}) => {
        setDialog({ kind: 'form', song, origin });
      },
      remove: (song) => {
        confirm({
          message: UiMessages.confirmDelete(song.name),
          onConfirm: () => {
            deleteSong(song, {
              onSuccess: (text) => {
                alerts.success(text);
              },
              onError: (error) => {
                alerts.error(ClientMessages.songNotDeleted, describeError(error));
              },
            });
          },
        });
      },
      addToPlaylist: (song) => {
        setDialog({ kind: 'playlist', song });
      },
      details: (song) => {
        setDialog({ kind: 'details', song });
      },
      download: (song) => {
        // Free accounts are sent to the plans with a word on why, instead of a refusal from the server.
        const toPayment = (): void => {
          void navigate(Paths.payment, { state: premiumRequiredState(song.name) });
        };
        if (!mayDownload) {
          toPayment();
          return;
        }
        downloadSong(song).then(
          () => {
            alerts.success(UiMessages.downloaded(song.name));
          },
          (error: unknown) => {
            // Premium ran out since the user was last checked.
            if (isApiError(error, 403)) toPayment();
            else alerts.error(UiMessages.downloadFailed, describeError(error));
          },
        );
      },
    }),
    [alerts, confirm, deleteSong, mayDownload, navigate],
  );

  const close = (): void => {
    setDialog(null);
  };

  return (
    <SongActionsContext value={actions}>
      {children}
      {dialog?.kind === 'form' && (
        <SongFormDialog
          song={dialog.song}
          artist={dialog.origin.artist}
          onClose={close}
          onSaved={() => {
            close();
            if (dialog.origin.artist) void navigate(Paths.artist);
          }}
        />
      )}
      {dialog?.kind === 'playlist' && <SelectPlaylistDialog song={dialog.song} onClose={close} />}
      {dialog?.kind === 'details' && <SongDetailsDialog song={dialog.song} onClose={close} />}
    </SongActionsContext>
  );
}
