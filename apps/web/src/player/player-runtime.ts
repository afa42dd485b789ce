import type { Song } from '@tonearm/contract';
import { rememberRecentSong } from '../lib/recent-songs.js';
import {
  createClockStore,
  createPlayerStore,
  type ClockStore,
  type PlayerState,
  type PlayerStore,
} from './player-store.js';
import { isWelcomeSong } from './welcome-song.js';

/** Pressing previous later than this restarts the current song instead, as every music player does. */
export const RESTART_THRESHOLD_SECONDS = 3;

export interface PlayerControls {
  /** Choose `songs[index]` from a list: sets the list, index and current song and plays it. */
  playList: (songs: readonly Song[], index: number) => void;
  /** The play/pause toggle of a song row: toggles the current song, otherwise starts this one. */
  toggleSong: (song: Song, list: readonly Song[]) => void;
  toggle: () => void;
  play: () => void;
  pause: () => void;
  next: () => void;
  previous: () => void;
  seek: (seconds: number) => void;
  setVolume: (volume: number) => void;
  toggleMute: () => void;
  reset: () => void;
}

export interface PlayerRuntime {
  readonly store: PlayerStore;
  readonly clock: ClockStore;
  readonly audio: HTMLAudioElement;
  readonly controls: PlayerControls;
}

export function createPlayerRuntime(audio: HTMLAudioElement, store: PlayerStore = createPlayerStore()): PlayerRuntime {
  const clock = createClockStore();
  const controls: PlayerControls = {
    playList: (songs, index) => {
      store.dispatch({ type: 'playList', songs, index });
    },
    toggleSong: (song, list) => {
      if (store.getState().current.id === song.id) {
        store.dispatch({ type: 'toggle' });
        return;
      }
      const index = list.findIndex((entry) => entry.id === song.id);
      if (index >= 0) store.dispatch({ type: 'playList', songs: list, index });
      else store.dispatch({ type: 'playList', songs: [song], index: 0 });
    },
    toggle: () => {
      store.dispatch({ type: 'toggle' });
    },
    play: () => {
      store.dispatch({ type: 'play' });
    },
    pause: () => {
      store.dispatch({ type: 'pause' });
    },
    next: () => {
      store.dispatch({ type: 'next' });
    },
    previous: () => {
      if (audio.currentTime > RESTART_THRESHOLD_SECONDS || store.getState().index === 0) controls.seek(0);
      else store.dispatch({ type: 'previous' });
    },
    seek: (seconds) => {
      if (!Number.isFinite(seconds)) return;
      const target = Math.max(0, seconds);
      audio.currentTime = target;
      clock.dispatch({ type: 'time', position: target });
    },
    setVolume: (volume) => {
      store.dispatch({ type: 'setVolume', volume });
    },
    toggleMute: () => {
      store.dispatch({ type: 'toggleMute' });
    },
    reset: () => {
      store.dispatch({ type: 'reset' });
    },
  };
  return { store, clock, audio, controls };
}

/** SPEC §4: every song that starts playing goes to the front of the recent list (the welcome song does not). */
export function trackRecentSongs(store: PlayerStore, remember: (song: Song) => void = rememberRecentSong): () => void {
  let lastKey = store.getState().trackKey;
  return store.subscribe(() => {
    const state = store.getState();
    if (state.trackKey === lastKey) return;
    lastKey = state.trackKey;
    if (!isWelcomeSong(state.current)) remember(state.current);
  });
}

/**
 * Keeps the one <audio> element in step with the store and reports its events back. Returns a disconnect
 * function. Media Session and next-track preloading hook in here later.
 */
export function connectAudioEngine(runtime: PlayerRuntime, onPlaybackError: (song: Song) => void): () => void {
  const { store, clock, audio } = runtime;
  let loadedKey = -1;

  const apply = (state: PlayerState): void => {
    if (state.trackKey !== loadedKey) {
      loadedKey = state.trackKey;
      audio.src = state.current.link;
      clock.dispatch({ type: 'reset' });
      if (state.current.durationMs !== null) {
        clock.dispatch({ type: 'duration', duration: state.current.durationMs / 1000 });
      }
    }
    audio.volume = state.volume;
    audio.muted = state.muted;
    if (state.playing && audio.paused) {
      audio.play().catch((error: unknown) => {
        // AbortError: a newer src replaced this one; the new track's own play() decides.
        if (error instanceof DOMException && error.name === 'AbortError') return;
        store.dispatch({ type: 'pause' });
      });
    } else if (!state.playing && !audio.paused) {
      audio.pause();
    }
  };

  const listeners: [keyof HTMLMediaElementEventMap, () => void][] = [
    ['timeupdate', () => clock.dispatch({ type: 'time', position: audio.currentTime })],
    ['durationchange', () => clock.dispatch({ type: 'duration', duration: audio.duration })],
    ['ended', () => store.dispatch({ type: 'ended' })],
    // Playback paused or resumed outside the app (headset button, OS media keys) keeps the store honest.
    ['play', () => store.dispatch({ type: 'play' })],
    [
      'pause',
      () => {
        if (!audio.ended) store.dispatch({ type: 'pause' });
      },
    ],
    [
      'error',
      () => {
        store.dispatch({ type: 'pause' });
        onPlaybackError(store.getState().current);
      },
    ],
  ];
  listeners.forEach(([event, handler]) => {
    audio.addEventListener(event, handler);
  });
  audio.preload = 'metadata';
  apply(store.getState());
  const unsubscribe = store.subscribe(() => {
    apply(store.getState());
  });

  return () => {
    unsubscribe();
    listeners.forEach(([event, handler]) => {
      audio.removeEventListener(event, handler);
    });
    audio.pause();
  };
}
