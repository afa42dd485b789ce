import { SHUFFLE_SEED_MAX } from '@tonearm/contract';
import type { SongOrder } from './song-order.js';
import type { SongSource } from '../../lib/song-sources.js';

/** A seed for the server's shuffle (0 to SHUFFLE_SEED_MAX). */
export function randomSeed(random: () => number = Math.random): number {
  return Math.floor(random() * (SHUFFLE_SEED_MAX + 1));
}

/**
 * SPEC §7 "songs arrive shuffled": the server shuffles by seed. One seed per page session, so a refetch (after an
 * edit, a like) keeps every song where it was, and the home shelf and the songs page show the same order.
 */
const sessionCatalogue: Extract<SongSource, { kind: 'catalogue' }> = {
  kind: 'catalogue',
  order: 'shuffle',
  seed: randomSeed(),
};

/** The catalogue (or one artist's songs), shuffled with this session's seed; the whole catalogue is one object. */
export function catalogueSource(artistId?: number): SongSource {
  return artistId === undefined ? sessionCatalogue : { ...sessionCatalogue, artistId };
}

/** The catalogue (or one artist's songs) in a new order, for "Shuffle all". */
export function reshuffledCatalogue(artistId?: number): SongSource {
  return { kind: 'catalogue', order: 'shuffle', seed: randomSeed(), artistId };
}

/** The catalogue (or one artist's songs) in an order chosen in its headers: this session's shuffle for `list`. */
export function orderedCatalogue(order: SongOrder, artistId?: number): SongSource {
  if (order.by === 'list') return catalogueSource(artistId);
  return { kind: 'catalogue', order: order.by, direction: order.direction, artistId };
}
