import type { Locator } from '@playwright/test';

/** What the page's <audio> element reports. */
export interface AudioSnapshot {
  src: string;
  paused: boolean;
  currentTime: number;
  duration: number;
  /** How many `playing` events fired since `recordPlayingEvents`. */
  playingEvents: number;
}

const COUNTER = 'e2ePlayingEvents';

/** Counts `playing` events on the element from now on (kept in a data attribute, readable by `audioSnapshot`). */
export async function recordPlayingEvents(audio: Locator): Promise<void> {
  await audio.evaluate((element: HTMLAudioElement, key) => {
    element.dataset[key] = '0';
    element.addEventListener('playing', () => {
      element.dataset[key] = String(Number(element.dataset[key] ?? '0') + 1);
    });
  }, COUNTER);
}

export function audioSnapshot(audio: Locator): Promise<AudioSnapshot> {
  return audio.evaluate(
    (element: HTMLAudioElement, key) => ({
      src: element.currentSrc || element.src,
      paused: element.paused,
      currentTime: element.currentTime,
      duration: element.duration,
      playingEvents: Number(element.dataset[key] ?? '0'),
    }),
    COUNTER,
  );
}
