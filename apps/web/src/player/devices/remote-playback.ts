import type { DeviceCommand, SavedQueue } from '@tonearm/contract';
import type { PlayerRuntime } from '../player-runtime.js';

/** Does what another device asked of this one. */
export function applyCommand(runtime: PlayerRuntime, command: DeviceCommand): void {
  const { controls } = runtime;
  switch (command.type) {
    case 'play':
      controls.play();
      return;
    case 'pause':
      controls.pause();
      return;
    case 'next':
      controls.next();
      return;
    case 'previous':
      controls.previous();
      return;
    case 'seek':
      controls.seek(command.positionMs / 1000);
      return;
    case 'volume':
      controls.setVolume(command.volume);
      return;
  }
}

/**
 * Plays the saved queue here from `positionMs` into its current song: the same queue, song and position the other
 * device had. The position is set once the song's metadata is known (earlier, a browser may ignore it).
 */
export function playSavedQueue(runtime: PlayerRuntime, queue: NonNullable<SavedQueue['queue']>, positionMs: number) {
  runtime.controls.playList(queue.songs, queue.currentIndex);
  runtime.controls.play();
  const seconds = positionMs / 1000;
  if (seconds <= 0) return;
  const audio = runtime.audio;
  if (audio.readyState >= 1) runtime.controls.seek(seconds);
  else {
    audio.addEventListener(
      'loadedmetadata',
      () => {
        runtime.controls.seek(seconds);
      },
      { once: true },
    );
  }
}
