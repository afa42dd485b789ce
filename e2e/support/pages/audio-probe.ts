import type { Locator, Page } from '@playwright/test';

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

/**
 * Gapless playback on or off in this page's browser (a setting of the profile, `tonearm.gapless`, on by default): set
 * before any of the app's scripts run, on every page load of the test.
 */
export async function setGapless(page: Page, on: boolean): Promise<void> {
  await page.addInitScript((value) => {
    localStorage.setItem('tonearm.gapless', value);
  }, JSON.stringify(on));
}

/** The playing song's length as the player shows it (the seek slider's end; a gapless element's own is longer). */
export async function songLength(player: Locator): Promise<number> {
  return Number(await player.getByRole('slider', { name: 'Seek' }).getAttribute('max'));
}

/** The end of what the element holds (for a gapless stream: the next song's data appended after the current one). */
export function bufferedEnd(audio: Locator): Promise<number> {
  return audio.evaluate((element: HTMLAudioElement) =>
    element.buffered.length === 0 ? 0 : element.buffered.end(element.buffered.length - 1),
  );
}
