import { useCallback } from 'react';
import { describeError } from '../../lib/api-client.js';
import { fetchSongPage, type SongSource } from '../../lib/song-sources.js';
import { usePlayerControls } from '../../player/usePlayer.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';

/** Songs the radio queues at a time (the queue asks for more as it nears the end). */
const RADIO_PAGE = 20;

/**
 * "Start radio" (issue 28): plays an endless queue of songs like the seed's (a song, or an album's, artist's or
 * playlist's songs), chosen on the server from their sound, tags and what this server's listeners play together.
 */
export function useStartRadio(): (seedIds: readonly number[], label: string) => void {
  const controls = usePlayerControls();
  const alerts = useAlerts();
  return useCallback(
    (seedIds, label) => {
      const source: SongSource = { kind: 'radio', seedIds };
      fetchSongPage(source, { limit: RADIO_PAGE })
        .then((page) => {
          if (page.items.length === 0) {
            alerts.error(`No radio for ${label}`, 'No song you may play is like it yet.');
            return;
          }
          controls.playFrom({ source, songs: page.items, nextCursor: page.nextCursor, index: 0 });
        })
        .catch((error: unknown) => {
          alerts.error(`The radio for ${label} could not start`, describeError(error));
        });
    },
    [alerts, controls],
  );
}
