export type RepeatMode = 'off' | 'all' | 'one';

/** Why playback moves on: the listener pressed Next, or the current song played to its end. */
export type Advance = 'next' | 'ended';

export interface QueuePosition {
  /** The play order. With shuffle on it is already shuffled, so shuffle plays no part in what comes next. */
  readonly queue: readonly unknown[];
  readonly index: number;
  readonly repeat: RepeatMode;
  /** The list goes on past the loaded part of the queue: a page is still to come. */
  readonly more?: boolean;
  /** The queue no longer holds the list from its first song, so starting over means fetching it again. */
  readonly partial?: boolean;
}

/** A queue index to play, 'wait' for a page that is still to come, or null when nothing follows. */
export type NextStep = number | 'wait' | null;

/** After the last loaded song: the next page, or the list again from its first song. */
function afterLast({ more = false, partial = false }: QueuePosition): 'wait' | 0 {
  return more || partial ? 'wait' : 0;
}

/**
 * The one "what comes next" rule, for Next, for a song that ends and for preloading. Next always moves on and wraps
 * from the last song to the first, whatever the repeat mode. A song that ends starts again under repeat one;
 * otherwise the following song plays, and after the last one the first (repeat all) or nothing (repeat off).
 * The end of the loaded queue is not the end of a paged list: while a page is to come the step is 'wait', and so is
 * starting over when the queue no longer holds the list's first song.
 */
export function nextIndex(position: QueuePosition, advance: Advance): NextStep {
  const { queue, index, repeat } = position;
  if (queue.length === 0) return null;
  if (advance === 'ended' && repeat === 'one') return index;
  if (index + 1 < queue.length) return index + 1;
  if (advance === 'next' || repeat === 'all') return afterLast(position);
  return position.more ? 'wait' : null;
}
