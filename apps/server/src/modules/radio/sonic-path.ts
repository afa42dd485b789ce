/*
 * Issue 28's sonic path (OpenSubsonic's findSonicPath): songs that lead from one song's sound to another's. The way is
 * the straight line between the two songs' standardised vectors; each waypoint on it asks the index for its nearest
 * songs, and the path takes, waypoint by waypoint, the nearest one the listener may play and that is not on it yet.
 */
import { normalised } from './vector-index.js';

/** `count` points evenly spaced between `from` and `to` (neither included), each of length 1, from `from` on. */
export function waypoints(from: Float32Array, to: Float32Array, count: number): Float32Array[] {
  return Array.from({ length: Math.max(0, count) }, (_, i) => {
    const share = (i + 1) / (count + 1);
    return normalised(from.map((value, d) => (1 - share) * value + share * (to[d] ?? 0)));
  });
}

/**
 * One song per waypoint, in order: the first of its neighbours (nearest first) that is `playable` and not taken by an
 * earlier waypoint. A waypoint whose neighbours are all taken or unplayable adds nothing, so the path may be shorter.
 */
export function pickPath(neighbours: readonly (readonly number[])[], playable: ReadonlySet<number>): number[] {
  const taken = new Set<number>();
  for (const candidates of neighbours) {
    const song = candidates.find((id) => playable.has(id) && !taken.has(id));
    if (song !== undefined) taken.add(song);
  }
  return [...taken];
}
