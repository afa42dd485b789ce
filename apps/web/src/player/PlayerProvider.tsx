import { endpoints } from '@tonearm/contract';
import { useEffect, useState, type ReactNode } from 'react';
import { api } from '../lib/api.js';
import { rememberRecentSong } from '../lib/recent-songs.js';
import { UiMessages } from '../lib/ui-messages.js';
import { useAlerts } from '../shell/alerts/useAlerts.js';
import { useAuth } from '../shell/auth/useAuth.js';
import { createAudioDeck } from './audio-deck.js';
import { DevicesProvider } from './devices/DevicesProvider.js';
import { countListens } from './listen-counter.js';
import { connectMediaSession } from './media-session.js';
import { clearPersistedPlayer, persistPlayer, readPersistedPlayer } from './player-persistence.js';
import { connectAudioEngine, createPlayerRuntime, trackRecentSongs, type PlayerRuntime } from './player-runtime.js';
import { createPlayerStore } from './player-store.js';
import { connectQueueFeeder } from './queue-feeder.js';
import { PlayerContext } from './usePlayer.js';

interface Player {
  runtime: PlayerRuntime;
  startPosition: number;
}

/**
 * The player as it was before the reload: queue, song, shuffle, repeat, volume and position (paused). A restored
 * queue with a feed fetches ahead as usual.
 */
function restorePlayer(): Player {
  const { state, position } = readPersistedPlayer();
  const runtime = createPlayerRuntime(createAudioDeck(), { store: createPlayerStore(state), startPosition: position });
  return { runtime, startPosition: position };
}

/**
 * Owns the audio deck. It sits in the dashboard layout, which stays mounted across the dashboard's pages, so playback
 * continues while navigating there; logging out unmounts it (stopping the music), and the saved queue is forgotten
 * with the session (shell/auth/stored-user.ts). Signed out while mounted (tests), it returns to the welcome song.
 */
export function PlayerProvider({ children, runtime }: { children: ReactNode; runtime?: PlayerRuntime }) {
  const [player] = useState<Player>(() => (runtime ? { runtime, startPosition: 0 } : restorePlayer()));
  const alerts = useAlerts();
  const { user } = useAuth();

  useEffect(() => {
    const { runtime: current, startPosition } = player;
    for (const element of current.deck.elements) document.body.appendChild(element);
    const disconnect = connectAudioEngine(
      current,
      (song) => {
        alerts.error(UiMessages.playbackFailed(song.name));
      },
      startPosition,
    );
    const stopTracking = trackRecentSongs(current.store, (song) => {
      rememberRecentSong(song);
      // Counts the play on the server (listening history); a failure must never interrupt the music.
      api.plays.record({ body: { songId: song.id } }).catch(() => undefined);
    });
    // Issue 28: plays that counted, for the listener's statistics and scrobbling (a lost report is not retried).
    const stopCounting = countListens(current.store, current.clock, (listen, keepalive) => {
      fetch(endpoints.plays.listen.path, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(listen),
        keepalive,
      }).catch(() => undefined);
    });
    const stopFeeding = connectQueueFeeder(current.store);
    const disconnectSession = connectMediaSession(current);
    const stopPersisting = persistPlayer(current.store, current.clock);
    return () => {
      stopPersisting();
      disconnectSession();
      stopFeeding();
      stopCounting();
      stopTracking();
      disconnect();
      for (const element of current.deck.elements) element.remove();
    };
  }, [player, alerts]);

  useEffect(() => {
    if (user !== null) return;
    player.runtime.controls.reset();
    clearPersistedPlayer();
  }, [user, player]);

  // This browser as a device of the signed-in user (issue 27): the one queue across devices and remote control.
  return (
    <PlayerContext value={player.runtime}>
      <DevicesProvider enabled={user !== null}>{children}</DevicesProvider>
    </PlayerContext>
  );
}
