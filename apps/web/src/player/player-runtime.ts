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
import { isAudioUrl } from '@tonearm/contract';
import { readCrossfade, readGapless } from '../lib/crossfade.js';
import { readDownloadedSongs } from '../lib/downloaded-songs.js';
import { GaplessChain, gaplessSupported } from './gapless/gapless-chain.js';
import { crossfadeBetween, equalPowerGains } from './gapless/transitions.js';

export type { QueueStart };

/** Pressing previous later than this restarts the current song instead, as every music player does. */
export const RESTART_THRESHOLD_SECONDS = 3;
/** The next song starts loading this long before the current one ends. */
export const PRELOAD_LEAD_SECONDS = 30;
/** How often the volumes follow the crossfade's curves. */
const FADE_STEP_MS = 40;
/** A crossfade due within this many seconds is started by a timer at its exact time. */
const FADE_ARM_SECONDS = 0.5;
/** The incoming song's gapless stream is opened (paused) this long before its crossfade, so it starts at once. */
const FADE_PRIME_SECONDS = 3;

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
  const position = (): number => deck.transport?.position() ?? deck.active.currentTime;
  const seek = (seconds: number): void => {
    if (!Number.isFinite(seconds)) return;
    const duration = clock.getState().duration;
    const target = Math.max(0, duration > 0 ? Math.min(seconds, duration) : seconds);
    if (deck.transport) deck.transport.seek(target);
    else deck.active.currentTime = target;
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
      if (position() > RESTART_THRESHOLD_SECONDS || store.getState().index === 0) seek(0);
      else dispatch({ type: 'previous' });
    },
    seek,
    seekBy: (seconds) => {
      seek(position() + seconds);
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
  // Gapless playback (docs/design.md, "Gapless playback"): each element may be driven by a chain of gapless streams.
  // Off for this session once the server answers the gapless format with something else (no ffmpeg).
  let serverGapless = true;
  const chains = new Map<HTMLAudioElement, GaplessChain>();
  const chainOf = (element: HTMLAudioElement): GaplessChain | null => chains.get(element) ?? null;
  /**
   * The gapless stream plays a song when the browser and server can, online, and the song is not downloaded. Its
   * length must be known: the stream's element has none of its own (another song may be appended to it).
   */
  const gaplessFor = (song: Song): boolean =>
    serverGapless &&
    song.durationMs !== null &&
    chains.size > 0 &&
    readGapless() &&
    isAudioUrl(song.link) &&
    !isWelcomeSong(song) &&
    !readDataSaver() &&
    navigator.onLine &&
    !readDownloadedSongs().some((downloaded) => downloaded.id === song.id);
  /**
   * A crossfade under way: the outgoing element and its song, the outgoing song's position where it ends, and (once
   * the incoming song is heard) the outgoing position where the fade began. Both curves follow the elements' media
   * clocks, not the page's timers: a late timer or a slow start of the incoming stream cannot bend them.
   */
  let fade: {
    element: HTMLAudioElement;
    song: Song;
    started: number;
    seconds: number;
    ends: number;
    from: number | null;
  } | null = null;
  let fadeTimer: ReturnType<typeof setInterval> | null = null;
  /** Armed shortly before a crossfade is due, for its exact start. */
  let fadeStart: ReturnType<typeof setTimeout> | null = null;
  const clearFadeStart = (): void => {
    if (fadeStart !== null) clearTimeout(fadeStart);
    fadeStart = null;
  };
  // Set just before the store moves on for a crossfade: the next load plays on the standby element.
  let crossfadeNext = 0;

  const syncTransport = (): void => {
    const chain = chainOf(deck.active);
    deck.transport = chain?.active
      ? { position: () => chain.position(), seek: (seconds) => chain.seek(seconds) }
      : null;
  };
  const position = (): number => deck.transport?.position() ?? deck.active.currentTime;

  const playPlain = (element: HTMLAudioElement, song: Song, position: number): void => {
    chainOf(element)?.stop();
    element.src = linkOf(song);
    if (position > 0) element.currentTime = position;
  };

  const loadOn = (element: HTMLAudioElement, song: Song, position: number, play: boolean): void => {
    const chain = chainOf(element);
    if (chain && gaplessFor(song)) chain.load(song, position, play);
    else playPlain(element, song, position);
  };

  const loadTrack = (song: Song, position: number): void => {
    const { active, standby } = deck;
    const link = linkOf(song);
    const playing = store.getState().playing;
    if (chainOf(active)?.takeHandover(song)) {
      // The gapless stream moved on to this song by itself: nothing to load.
    } else if (crossfadeNext > 0) {
      startFade(song, crossfadeNext);
    } else if (chainOf(active)?.song?.id === song.id && position === 0) {
      chainOf(active)?.seek(0);
    } else if (gaplessFor(song)) {
      standby.pause();
      chainOf(active)?.load(song, position, playing);
    } else if (active.getAttribute('src') === link && !active.error) {
      // The same song again (repeat one, chosen twice): rewind instead of fetching it anew.
      active.currentTime = position;
    } else if (standby.getAttribute('src') === link && !standby.error && position === 0) {
      active.pause();
      chainOf(active)?.stop();
      deck.swap();
      deck.active.currentTime = 0;
    } else {
      playPlain(active, song, position);
    }
    crossfadeNext = 0;
    // A stream primed for a crossfade that did not happen (a skip, a change of queue) is let go.
    if (fade === null) chainOf(deck.standby)?.stop();
    syncTransport();
    clock.dispatch({ type: 'reset', position: deck.transport ? deck.transport.position() : position });
    const duration = song.durationMs === null ? deck.active.duration : song.durationMs / 1000;
    clock.dispatch({ type: 'duration', duration });
  };

  /** The incoming song starts on the standby element, which becomes the active one; the outgoing one fades out. */
  const startFade = (song: Song, seconds: number): void => {
    const outgoing = deck.active;
    const previous = fade === null ? null : fade.element;
    if (previous) endFade();
    const ends = positionOf(outgoing) + seconds;
    fade = { element: outgoing, song: outgoingSong, started: performance.now(), seconds, ends, from: null };
    deck.swap();
    if (chainOf(deck.active)?.song?.id === song.id && deck.active.currentTime === 0) {
      // Primed before the fade (primeFade): its stream is open and buffered.
      deck.active.play().catch(() => undefined);
    } else {
      loadOn(deck.active, song, 0, true);
    }
    fadeTimer = setInterval(stepFade, FADE_STEP_MS);
    stepFade();
  };

  const endFade = (): void => {
    if (fadeTimer !== null) clearInterval(fadeTimer);
    fadeTimer = null;
    if (fade === null) return;
    const { element } = fade;
    fade = null;
    element.pause();
    chainOf(element)?.stop();
    applyVolumes(store.getState());
  };

  /** An element's position in its own song (a gapless stream's element plays several). */
  const positionOf = (element: HTMLAudioElement): number => {
    const chain = chainOf(element);
    return chain?.active ? chain.position() : element.currentTime;
  };

  /**
   * How far the fade has gone (0..1). It begins when the incoming song is first heard (its stream may take a moment
   * to start): the outgoing song keeps its full volume until then, and the fade takes what is left of it.
   */
  const fadeProgress = (): number => {
    if (fade === null) return 1;
    const outgoing = positionOf(fade.element);
    if (fade.from === null) {
      const heard = deck.active.paused ? 0 : positionOf(deck.active);
      if (heard <= 0) return 0;
      fade.from = outgoing - heard;
    }
    const length = fade.ends - fade.from;
    return length <= 0 ? 1 : (outgoing - fade.from) / length;
  };

  /** A fade ends with its curve, with the outgoing song, or (should a clock stall) a second after it was due. */
  const stepFade = (): void => {
    if (fade === null) return;
    const overdue = performance.now() - fade.started > (fade.seconds + 1) * 1000;
    if (fadeProgress() >= 1 || fade.element.ended || overdue) endFade();
    else applyVolumes(store.getState());
  };

  /** Each element at the chosen volume, scaled by its own song's ReplayGain (loudness.ts) and the crossfade's curve. */
  const applyVolumes = (state: PlayerState): void => {
    const gains = equalPowerGains(fadeProgress());
    const upcoming = songAfterCurrent(state);
    for (const element of deck.elements) {
      let factor: number;
      if (fade !== null && element === fade.element) factor = loudnessFactor(fade.song) * gains.out;
      else if (element === deck.active) factor = loudnessFactor(state.current) * (fade === null ? 1 : gains.in);
      else factor = loudnessFactor(upcoming);
      element.volume = state.volume * factor;
      element.muted = state.muted;
    }
  };

  /** The song the active element plays, for the crossfade's outgoing ReplayGain. */
  let outgoingSong: Song = store.getState().current;

  /**
   * Starts a crossfade into the next song once the current one is within the crossfade of its end (never between
   * consecutive tracks of one album: those stay gapless).
   */
  const maybeCrossfade = (): void => {
    clearFadeStart();
    const state = store.getState();
    const upcoming = songAfterCurrent(state);
    if (fade !== null || !state.playing || !upcoming || upcoming.id === state.current.id || isWelcomeSong(upcoming))
      return;
    const { duration } = clock.getState();
    const seconds = Math.min(crossfadeBetween(state.current, upcoming, readCrossfade()), duration / 2);
    const left = duration - position();
    if (seconds > 0 && left - seconds <= FADE_PRIME_SECONDS) primeFade(upcoming);
    if (seconds <= 0 || left - seconds > FADE_ARM_SECONDS) return;
    if (left > seconds) {
      // timeupdate comes only every quarter second or so: a timer starts the fade on time.
      fadeStart = setTimeout(maybeCrossfade, ((left - seconds) * 1000) / (deck.active.playbackRate || 1));
      return;
    }
    // Never longer than what is left of the outgoing song, so the fade ends with it rather than cutting it off.
    crossfadeNext = Math.max(FADE_STEP_MS / 1000, left);
    store.dispatch({ type: 'ended' });
    crossfadeNext = 0;
  };

  /**
   * Opens the incoming song's gapless stream on the standby element, paused, before its crossfade: started only when
   * the fade is due, it would be heard a fetch and an append late and the fade would be cut short. A plain song is
   * preloaded on the standby element already (preloadNext).
   */
  const primeFade = (song: Song): void => {
    const chain = chainOf(deck.standby);
    if (!chain || !gaplessFor(song) || chain.song?.id === song.id) return;
    deck.standby.pause();
    chain.load(song, 0, false);
  };

  /** What the active chain appends after its song: the next song, unless a crossfade or a plain element plays it. */
  const followNext = (state: PlayerState): void => {
    const chain = chainOf(deck.active);
    if (!chain?.active) return;
    const upcoming = songAfterCurrent(state);
    const gapless =
      upcoming !== null &&
      upcoming.id !== state.current.id &&
      gaplessFor(upcoming) &&
      crossfadeBetween(state.current, upcoming, readCrossfade()) === 0;
    chain.follow(gapless ? upcoming : null);
  };

  const preloadNext = (state: PlayerState): void => {
    const upcoming = songAfterCurrent(state);
    if (!upcoming || upcoming.id === state.current.id || isWelcomeSong(upcoming) || gaplessFor(upcoming)) return;
    if (fade !== null) return;
    const { duration } = clock.getState();
    if (duration <= 0 || duration - position() > PRELOAD_LEAD_SECONDS) return;
    const { standby } = deck;
    const link = linkOf(upcoming);
    if (standby.getAttribute('src') === link) return;
    chainOf(standby)?.stop();
    standby.preload = 'auto';
    standby.src = link;
  };

  const apply = (state: PlayerState): void => {
    if (state.trackKey !== loadedKey) {
      const first = loadedKey === -1;
      loadedKey = state.trackKey;
      if (!first) pendingPosition = 0;
      loadTrack(state.current, first ? startPosition : 0);
      outgoingSong = state.current;
    }
    const { active } = deck;
    if (!state.playing && fade !== null) endFade();
    applyVolumes(state);
    followNext(state);
    if (state.playing && active.paused && chainOf(active)?.restartIfEnded()) {
      // A gapless stream that played out starts its song over (a plain element restarts at 0 by itself).
      syncTransport();
      clock.dispatch({ type: 'time', position: 0 });
    } else if (state.playing && active.paused) {
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
        clock.dispatch({ type: 'time', position: position() });
        preloadNext(store.getState());
        maybeCrossfade();
      }),
    ],
    [
      'durationchange',
      // A gapless stream's element lasts as long as every song appended: the song's own length stands.
      fromActive(() => {
        if (!deck.transport) clock.dispatch({ type: 'duration', duration: deck.active.duration });
      }),
    ],
    [
      'loadedmetadata',
      fromActive(() => {
        if (!deck.transport && pendingPosition > 0 && Math.abs(deck.active.currentTime - pendingPosition) > 0.5) {
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
  if (gaplessSupported()) {
    for (const element of deck.elements) {
      const chain = new GaplessChain(element, {
        onTrackChange: () => {
          if (element === deck.active) store.dispatch({ type: 'ended' });
        },
        onFail: (song, at, serverCannot) => {
          if (serverCannot) serverGapless = false;
          playPlain(element, song, at);
          syncTransport();
          if (element === deck.active && store.getState().playing) element.play().catch(() => undefined);
        },
      });
      chains.set(element, chain);
    }
  }
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
    clearFadeStart();
    endFade();
    for (const chain of chains.values()) chain.dispose();
    deck.transport = null;
    for (const element of deck.elements) {
      listeners.forEach(([event, handler]) => {
        element.removeEventListener(event, handler);
      });
      element.pause();
    }
  };
}
