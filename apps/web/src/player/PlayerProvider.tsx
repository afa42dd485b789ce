import { useEffect, useState, type ReactNode } from 'react';
import { useAlerts } from '../features/alerts/useAlerts.js';
import { useAuth } from '../features/auth/useAuth.js';
import { rememberRecentSong } from '../lib/recent-songs.js';
import { UiMessages } from '../lib/ui-messages.js';
import { recordPlay } from '../features/songs/songs.api.js';
import { connectAudioEngine, createPlayerRuntime, trackRecentSongs, type PlayerRuntime } from './player-runtime.js';
import { PlayerContext } from './usePlayer.js';

/**
 * Owns the single <audio> element. It sits above the router, so playback continues across route changes;
 * logging out stops it and returns to the welcome song.
 */
export function PlayerProvider({ children, runtime }: { children: ReactNode; runtime?: PlayerRuntime }) {
  const [player] = useState(() => runtime ?? createPlayerRuntime(document.createElement('audio')));
  const alerts = useAlerts();
  const { user } = useAuth();

  useEffect(() => {
    const { audio } = player;
    audio.setAttribute('data-testid', 'player-audio');
    document.body.appendChild(audio);
    const disconnect = connectAudioEngine(player, (song) => {
      alerts.error(UiMessages.playbackFailed(song.name));
    });
    const stopTracking = trackRecentSongs(player.store, (song) => {
      rememberRecentSong(song);
      recordPlay(song.id).catch(() => undefined);
    });
    return () => {
      stopTracking();
      disconnect();
      audio.remove();
    };
  }, [player, alerts]);

  useEffect(() => {
    if (user === null) player.controls.reset();
  }, [user, player]);

  return <PlayerContext value={player}>{children}</PlayerContext>;
}
