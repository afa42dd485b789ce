import { useSyncExternalStore } from 'react';
import { AppStorageKeys, readJson, subscribeKey, writeJson } from './storage.js';

/** The crossfade setting's range in whole seconds (issue 27): 0 is off, the default. */
export const CROSSFADE_MAX_SECONDS = 12;

const isSeconds = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= CROSSFADE_MAX_SECONDS;

/**
 * The player's crossfade, kept in this browser's localStorage like the data saver (a listening preference of this
 * device). Read when a song nears its end, so a change applies from the next change of song.
 */
export function readCrossfade(): number {
  return readJson(AppStorageKeys.crossfade, isSeconds) ?? 0;
}

export function writeCrossfade(seconds: number): void {
  writeJson(AppStorageKeys.crossfade, Math.round(Math.min(CROSSFADE_MAX_SECONDS, Math.max(0, seconds))));
}

const subscribe = (listener: () => void) => subscribeKey(AppStorageKeys.crossfade, listener);

/** The setting, live (this tab and others). */
export function useCrossfade(): number {
  return useSyncExternalStore(subscribe, readCrossfade, readCrossfade);
}

/**
 * Gapless playback (docs/design.md, "Gapless playback"): on by default, songs play through the MSE gapless stream
 * where the browser and server can (elsewhere, and with this off, the two-element player plays the original files).
 */
export function readGapless(): boolean {
  return readJson(AppStorageKeys.gapless, (value): value is boolean => typeof value === 'boolean') ?? true;
}

export function writeGapless(on: boolean): void {
  writeJson(AppStorageKeys.gapless, on);
}

const subscribeGapless = (listener: () => void) => subscribeKey(AppStorageKeys.gapless, listener);

export function useGapless(): boolean {
  return useSyncExternalStore(subscribeGapless, readGapless, readGapless);
}
