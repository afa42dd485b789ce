import type { Song } from '@tonearm/contract';

/**
 * How much of the chosen volume a song plays at, from its ReplayGain tags: 10^(gain/20), and never so much that its
 * peak would clip (1 / peak). An `<audio>` element cannot go above full volume, so a quiet track (positive gain) plays
 * as it is and loud tracks are turned down to meet it; untagged songs play as they are.
 */
export function loudnessFactor(song: Pick<Song, 'replayGainDb' | 'replayGainPeak'> | null | undefined): number {
  if (song?.replayGainDb === null || song?.replayGainDb === undefined) return 1;
  const gain = 10 ** (song.replayGainDb / 20);
  const peak = song.replayGainPeak !== null && song.replayGainPeak > 0 ? 1 / song.replayGainPeak : Infinity;
  return Math.min(1, gain, peak);
}
