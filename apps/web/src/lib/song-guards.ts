import type { Song } from '@tonearm/contract';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Enough of a Song to list and play it; stored lists written by older versions still pass. */
export function isSong(value: unknown): value is Song {
  return (
    isRecord(value) &&
    typeof value.id === 'number' &&
    typeof value.name === 'string' &&
    typeof value.link === 'string' &&
    typeof value.imgLink === 'string' &&
    typeof value.artistName === 'string'
  );
}

export function isSongList(value: unknown): value is Song[] {
  return Array.isArray(value) && value.every(isSong);
}
