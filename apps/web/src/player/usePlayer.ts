import { createContext, useContext, useSyncExternalStore } from 'react';
import type { PlayerControls, PlayerRuntime } from './player-runtime.js';
import type { PlayerClock, PlayerState } from './player-store.js';

export const PlayerContext = createContext<PlayerRuntime | null>(null);

export function usePlayerRuntime(): PlayerRuntime {
  const player = useContext(PlayerContext);
  if (!player) throw new Error('Player hooks must be used inside <PlayerProvider>');
  return player;
}

/** Subscribes to one slice of the player state; the selector must return a primitive or a stored object. */
export function usePlayerState<T>(selector: (state: PlayerState) => T): T {
  const { store } = usePlayerRuntime();
  const read = (): T => selector(store.getState());
  return useSyncExternalStore(store.subscribe, read, read);
}

export function usePlayerClock(): PlayerClock {
  const { clock } = usePlayerRuntime();
  return useSyncExternalStore(clock.subscribe, clock.getState, clock.getState);
}

export function usePlayerControls(): PlayerControls {
  return usePlayerRuntime().controls;
}

/** True while this song is the current one and playing: drives the row's play/pause toggle. */
export function useIsSongPlaying(songId: number): boolean {
  return usePlayerState((state) => state.playing && state.current.id === songId);
}
