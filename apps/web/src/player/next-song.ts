export type RepeatMode = 'off' | 'all' | 'one';

/** Why playback moves on: the listener pressed Next, or the current song played to its end. */
export type Advance = 'next' | 'ended';

export interface QueuePosition {
  /** The play order. With shuffle on it is already shuffled, so shuffle plays no part in what comes next. */
  readonly queue: readonly unknown[];
  readonly index: number;
  readonly repeat: RepeatMode;
}

/**
 * The one "what comes next" rule, for Next, for a song that ends and for preloading: the queue index to play, or
 * null when nothing follows. Next always moves on and wraps from the last song to the first, whatever the repeat
 * mode. A song that ends starts again under repeat one; otherwise the following song plays, and after the last one
 * the first (repeat all) or nothing (repeat off).
 */
export function nextIndex({ queue, index, repeat }: QueuePosition, advance: Advance): number | null {
  if (queue.length === 0) return null;
  if (advance === 'next') return (index + 1) % queue.length;
  if (repeat === 'one') return index;
  if (index + 1 < queue.length) return index + 1;
  return repeat === 'all' ? 0 : null;
}
