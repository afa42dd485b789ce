import { isImageUrl, type Song } from '@tonearm/contract';
import { imageUrl } from '../lib/images.js';
import type { PlayerRuntime } from './player-runtime.js';

/** Seconds skipped by the lock screen's and headset's seek backward/forward buttons when they name no offset. */
export const MEDIA_SEEK_OFFSET_SECONDS = 10;

/** Lock-screen and notification artwork: the server's 300 and 640 px thumbnails, absolute as the API wants. */
export function artworkFor(song: Song, origin: string): MediaImage[] {
  if (song.imgLink === '') return [];
  if (!isImageUrl(song.imgLink)) return [{ src: new URL(song.imgLink, origin).href }];
  return ([300, 640] as const).map((width) => ({
    src: new URL(imageUrl(song.imgLink, width), origin).href,
    sizes: `${width}x${width}`,
    type: 'image/webp',
  }));
}

export function metadataFor(song: Song, origin: string): MediaMetadataInit {
  return { title: song.name, artist: song.artistName, album: song.genre, artwork: artworkFor(song, origin) };
}

/**
 * Media Session (DESIGN §5): the operating system's media controls (lock screen, notification, headset and
 * keyboard media keys) show the current song and drive the player. Returns a disconnect function.
 */
export function connectMediaSession(runtime: PlayerRuntime): () => void {
  if (typeof navigator === 'undefined' || !('mediaSession' in navigator)) return () => undefined;
  const session = navigator.mediaSession;
  const { store, clock, controls } = runtime;

  const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
    ['play', () => controls.play()],
    ['pause', () => controls.pause()],
    ['stop', () => controls.pause()],
    ['nexttrack', () => controls.next()],
    ['previoustrack', () => controls.previous()],
    ['seekto', (details) => details.seekTime !== undefined && controls.seek(details.seekTime)],
    ['seekbackward', (details) => controls.seekBy(-(details.seekOffset ?? MEDIA_SEEK_OFFSET_SECONDS))],
    ['seekforward', (details) => controls.seekBy(details.seekOffset ?? MEDIA_SEEK_OFFSET_SECONDS)],
  ];
  const setHandler = (action: MediaSessionAction, handler: MediaSessionActionHandler | null): void => {
    try {
      session.setActionHandler(action, handler);
    } catch {
      // This browser does not know the action; the others still work.
    }
  };
  handlers.forEach(([action, handler]) => {
    setHandler(action, handler);
  });

  let shownSong: Song | null = null;
  const showState = (): void => {
    const { current, playing } = store.getState();
    if (current !== shownSong) {
      shownSong = current;
      session.metadata = new MediaMetadata(metadataFor(current, window.location.origin));
    }
    session.playbackState = playing ? 'playing' : 'paused';
  };
  let lastSecond = -1;
  const showPosition = (): void => {
    const { position, duration } = clock.getState();
    // Once a second is enough: the OS interpolates between updates from the playback rate.
    const second = Math.floor(position);
    if (second === lastSecond || duration <= 0 || typeof session.setPositionState !== 'function') return;
    lastSecond = second;
    try {
      session.setPositionState({ duration, position: Math.min(position, duration), playbackRate: 1 });
    } catch {
      // A position past a stale duration is rejected; the next update corrects it.
    }
  };
  showState();
  const unsubscribeStore = store.subscribe(showState);
  const unsubscribeClock = clock.subscribe(showPosition);
  return () => {
    unsubscribeStore();
    unsubscribeClock();
    handlers.forEach(([action]) => {
      setHandler(action, null);
    });
    session.metadata = null;
  };
}
