import type { Song } from '@tonearm/contract';
import { readDataSaver } from '../lib/data-saver.js';
import { rememberRecentSong } from '../lib/recent-songs.js';
import { loudnessFactor } from './loudness.js';
import { streamLink } from '../lib/stream-link.js';
import { createAudioDeck, type AudioDeck } from './audio-deck.js';
import {
  createClockStore,
  createPlayerStore,
  songAfterCurrent,
  type ClockStore,
  type PlayerState,
  type PlayerStore,
  type QueueStart,
  type RepeatMode,
} from './player-store.js';
import { isWelcomeSong } from './welcome-song.js';

export type { QueueStart };

/** Pressing previous later than this restarts the current song instead, as every music player does. */
export const RESTART_THRESHOLD_SECONDS = 3;
/** The next song starts loading this long before the current one ends. */
export const PRELOAD_LEAD_SECONDS = 30;

export interface PlayerControls {
  /**
   * Choose a song from a paged list: the queue plays on through the rest of the list, fetching pages ahead
   * (connectQueueFeeder). With shuffle on, the catalogue goes on in a new server-side shuffle after the chosen song.
   */
  playFrom: (start: QueueStart) => void;
  /** Choose `songs[index]` from a list held whole in memory (downloaded, recent): sets the list, index and song. */
  playList: (songs: readonly Song[], index: number) => void;
  /** The play/pause toggle of a song row: toggles the current song, otherwise starts this one. */
  toggleSong: (song: Song, list: readonly Song[]) => void;
  toggle: () => void;
  play: () => void;
  pause: () => void;
  next: () => void;
  previous: () => void;
  seek: (seconds: number) => void;
  /** Seeks relative to the current position (keyboard arrows, media keys). */
  seekBy: (seconds: number) => void;
  setVolume: (volume: number) => void;
  toggleMute: () => void;
  toggleShuffle: () => void;
  setRepeat: (repeat: RepeatMode) => void;
  cycleRepeat: () => void;
  playNext: (song: Song) => void;
  addToQueue: (song: Song) => void;
  removeFromQueue: (index: number) => void;
  moveInQueue: (from: number, to: number) => void;
  jumpTo: (index: number) => void;
  /** Keeps queued copies of a song current (e.g. after a like). */
  updateSong: (songId: number, changes: Partial<Song>) => void;
  reset: () => void;
}

export interface PlayerRuntime {
  readonly store: PlayerStore;
  readonly clock: ClockStore;
  readonly deck: AudioDeck;
  /** The element that is playing now. */
  readonly audio: HTMLAudioElement;
  readonly controls: PlayerControls;
}

export interface PlayerRuntimeOptions {
  store?: PlayerStore;
  /** Seconds into the restored current song. */
  startPosition?: number;
}

export function createPlayerRuntime(deck: AudioDeck = createAudioDeck(), options: PlayerRuntimeOptions = {}) {
  const store = options.store ?? createPlayerStore();
  const clock = createClockStore();
  if (options.startPosition) clock.dispatch({ type: 'reset', position: options.startPosition });
  const dispatch = store.dispatch;
  const seek = (seconds: number): void => {
    if (!Number.isFinite(seconds)) return;
    const duration = clock.getState().duration;
    const target = Math.max(0, duration > 0 ? Math.min(seconds, duration) : seconds);
    deck.active.currentTime = target;
    clock.dispatch({ type: 'time', position: target });
  };
  const controls: PlayerControls = {
    playFrom: (start) => {
      dispatch({ type: 'playFrom', start });
    },
    playList: (songs, index) => {
      dispatch({ type: 'playList', songs, index });
    },
    toggleSong: (song, list) => {
      if (store.getState().current.id === song.id) {
        dispatch({ type: 'toggle' });
        return;
      }
      const index = list.findIndex((entry) => entry.id === song.id);
      if (index >= 0) dispatch({ type: 'playList', songs: list, index });
      else dispatch({ type: 'playList', songs: [song], index: 0 });
    },
    toggle: () => {
      dispatch({ type: 'toggle' });
    },
    play: () => {
      dispatch({ type: 'play' });
    },
    pause: () => {
      dispatch({ type: 'pause' });
    },
    next: () => {
      dispatch({ type: 'next' });
    },
    previous: () => {
      if (deck.active.currentTime > RESTART_THRESHOLD_SECONDS || store.getState().index === 0) seek(0);
      else dispatch({ type: 'previous' });
    },
    seek,
    seekBy: (seconds) => {
      seek(deck.active.currentTime + seconds);
    },
    setVolume: (volume) => {
      dispatch({ type: 'setVolume', volume });
    },
    toggleMute: () => {
      dispatch({ type: 'toggleMute' });
    },
    toggleShuffle: () => {
      dispatch({ type: 'toggleShuffle' });
    },
    setRepeat: (repeat) => {
      dispatch({ type: 'setRepeat', repeat });
    },
    cycleRepeat: () => {
      dispatch({ type: 'cycleRepeat' });
    },
    playNext: (song) => {
      dispatch({ type: 'playNext', song });
    },
    addToQueue: (song) => {
      dispatch({ type: 'addToQueue', song });
    },
    removeFromQueue: (index) => {
      dispatch({ type: 'removeFromQueue', index });
    },
    moveInQueue: (from, to) => {
      dispatch({ type: 'moveInQueue', from, to });
    },
    jumpTo: (index) => {
      dispatch({ type: 'jumpTo', index });
    },
    updateSong: (songId, changes) => {
      dispatch({ type: 'updateSong', songId, changes });
    },
    reset: () => {
      dispatch({ type: 'reset' });
    },
  };
  const runtime: PlayerRuntime = {
    store,
    clock,
    deck,
    get audio() {
      return deck.active;
    },
    controls,
  };
  return runtime;
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

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * Keeps the audio deck in step with the store and reports the active element's events back. The standby element
 * loads the song that follows once the current one is within PRELOAD_LEAD_SECONDS of its end; when the current song
 * ends the two swap, so the next one starts from data already buffered. Returns a disconnect function.
 */
export function connectAudioEngine(
  runtime: PlayerRuntime,
  onPlaybackError: (song: Song) => void,
  startPosition = 0,
): () => void {
  const { store, clock, deck } = runtime;
  // Decided when a song is loaded: a change of the data saver applies from the next song on.
  const linkOf = (song: Song): string =>
    streamLink(
      song.link,
      { dataSaver: readDataSaver(), canPlay: (mime) => deck.active.canPlayType(mime) !== '' },
      song.audioFormat,
    );
  let loadedKey = -1;
  // Applied once the restored song's metadata is known (setting it earlier is not honoured everywhere).
  let pendingPosition = startPosition;

  const loadTrack = (song: Song, position: number): void => {
    const { active, standby } = deck;
    const link = linkOf(song);
    if (active.getAttribute('src') === link && !active.error) {
      // The same song again (repeat one, chosen twice): rewind instead of fetching it anew.
      active.currentTime = position;
    } else if (standby.getAttribute('src') === link && !standby.error && position === 0) {
      active.pause();
      deck.swap();
      deck.active.currentTime = 0;
    } else {
      active.src = link;
      if (position > 0) active.currentTime = position;
    }
    clock.dispatch({ type: 'reset', position });
    const duration = song.durationMs === null ? deck.active.duration : song.durationMs / 1000;
    clock.dispatch({ type: 'duration', duration });
  };

  const preloadNext = (state: PlayerState): void => {
    const upcoming = songAfterCurrent(state);
    if (!upcoming || upcoming.id === state.current.id || isWelcomeSong(upcoming)) return;
    const { position, duration } = clock.getState();
    if (duration <= 0 || duration - position > PRELOAD_LEAD_SECONDS) return;
    const { standby } = deck;
    const link = linkOf(upcoming);
    if (standby.getAttribute('src') === link) return;
    standby.preload = 'auto';
    standby.src = link;
  };

  const apply = (state: PlayerState): void => {
    if (state.trackKey !== loadedKey) {
      const first = loadedKey === -1;
      loadedKey = state.trackKey;
      if (!first) pendingPosition = 0;
      loadTrack(state.current, first ? startPosition : 0);
    }
    const { active } = deck;
    // Each element at the chosen volume, scaled by its own song's ReplayGain (loudness.ts).
    const upcoming = songAfterCurrent(state);
    for (const element of deck.elements) {
      const song = element === active ? state.current : upcoming;
      element.volume = state.volume * loudnessFactor(song);
      element.muted = state.muted;
    }
    if (state.playing && active.paused) {
      active.play().catch((error: unknown) => {
        // AbortError: a newer src replaced this one; the new track's own play() decides.
        if (isAbort(error)) return;
        store.dispatch({ type: 'pause' });
      });
    } else if (!state.playing && !active.paused) {
      active.pause();
    }
    preloadNext(state);
  };

  const fromActive =
    (handler: () => void) =>
    (event: Event): void => {
      if (event.target === deck.active) handler();
    };
  const listeners: [keyof HTMLMediaElementEventMap, (event: Event) => void][] = [
    [
      'timeupdate',
      fromActive(() => {
        clock.dispatch({ type: 'time', position: deck.active.currentTime });
        preloadNext(store.getState());
      }),
    ],
    ['durationchange', fromActive(() => clock.dispatch({ type: 'duration', duration: deck.active.duration }))],
    [
      'loadedmetadata',
      fromActive(() => {
        if (pendingPosition > 0 && Math.abs(deck.active.currentTime - pendingPosition) > 0.5) {
          deck.active.currentTime = pendingPosition;
        }
        pendingPosition = 0;
      }),
    ],
    ['ended', fromActive(() => store.dispatch({ type: 'ended' }))],
    // Playback paused or resumed outside the app (headset button, OS media keys) keeps the store honest. Only what the
    // element does now counts: these events come a task later, so the echo of a play() the app made just before a
    // newer pause (play, then pause at once) would otherwise start the song again, and a stale pause would stop it.
    [
      'play',
      fromActive(() => {
        if (!deck.active.paused) store.dispatch({ type: 'play' });
      }),
    ],
    [
      'pause',
      fromActive(() => {
        if (deck.active.paused && !deck.active.ended) store.dispatch({ type: 'pause' });
      }),
    ],
    [
      'error',
      fromActive(() => {
        const state = store.getState();
        // A restored song that cannot load while nobody asked for sound (e.g. offline) is not worth an alert.
        if (!state.playing) return;
        store.dispatch({ type: 'pause' });
        onPlaybackError(state.current);
      }),
    ],
  ];
  for (const element of deck.elements) {
    element.preload = 'metadata';
    listeners.forEach(([event, handler]) => {
      element.addEventListener(event, handler);
    });
  }
  apply(store.getState());
  const unsubscribe = store.subscribe(() => {
    apply(store.getState());
  });

  return () => {
    unsubscribe();
    for (const element of deck.elements) {
      listeners.forEach(([event, handler]) => {
        element.removeEventListener(event, handler);
      });
      element.pause();
    }
  };
}
