import type { Song } from '@tonearm/contract';

/**
 * How one song hands over to the next (issue 27): an album played in order stays gapless, anything else crossfades
 * when the crossfade setting is on.
 */

/** True when `next` is the track after `previous` on the same album (same disc, or the first track of the next disc). */
export function isAlbumContinuation(
  previous: Pick<Song, 'albumId' | 'trackNumber' | 'discNumber'>,
  next: Pick<Song, 'albumId' | 'trackNumber' | 'discNumber'>,
): boolean {
  if (previous.albumId === null || previous.albumId !== next.albumId) return false;
  if (previous.trackNumber === null || next.trackNumber === null) return false;
  const previousDisc = previous.discNumber ?? 1;
  const nextDisc = next.discNumber ?? 1;
  if (nextDisc === previousDisc) return next.trackNumber === previous.trackNumber + 1;
  return nextDisc === previousDisc + 1 && next.trackNumber === 1;
}

/** The crossfade between two songs in seconds: 0 between consecutive album tracks, else the setting. */
export function crossfadeBetween(previous: Song, next: Song, setting: number): number {
  return setting > 0 && !isAlbumContinuation(previous, next) ? setting : 0;
}

/**
 * Equal-power gains at `progress` (0..1) through a crossfade: the outgoing song at cos, the incoming at sin of
 * progress·π/2, so out² + in² = 1 and the loudness of two uncorrelated songs stays even through the fade.
 */
export function equalPowerGains(progress: number): { out: number; in: number } {
  const t = Math.min(1, Math.max(0, progress));
  return { out: Math.cos((t * Math.PI) / 2), in: Math.sin((t * Math.PI) / 2) };
}
