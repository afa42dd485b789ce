import type { Kysely } from 'kysely';
import type { DB, DevicesTable } from '../../db/schema.js';

/** A device with the name and artist of the song it last reported. */
export interface DeviceRow {
  id: number;
  user_id: number;
  key: string;
  kind: DevicesTable['kind'];
  name: string;
  state: DevicesTable['state'];
  song_id: number | null;
  song_name: string | null;
  artist_name: string | null;
  duration_ms: number | null;
  position_ms: number | null;
  position_at: string | null;
  volume: number | null;
  last_seen_at: string;
}

export interface NewDevice {
  userId: number;
  key: string;
  kind: DevicesTable['kind'];
  name: string;
  at: string;
}

export interface DevicePlaybackChange {
  state: NonNullable<DevicesTable['state']>;
  songId: number | null;
  positionMs: number;
  volume: number | null;
  at: string;
}

/** The user's queue as saved: ids in play order, and which place is current. */
export interface SavedQueueRow {
  songIds: number[];
  currentIndex: number;
  positionMs: number;
  changedAt: string;
  deviceId: number | null;
  deviceName: string | null;
}

export interface DevicesRepository {
  /**
   * The user's device of that key, made (named `name`) when it is new, and seen now either way. A new one past
   * `keep` devices replaces the one seen longest ago.
   */
  register(device: NewDevice, keep: number): Promise<DeviceRow>;
  /** The user's device (undefined for another user's, or none). */
  find(userId: number, deviceId: number): Promise<DeviceRow | undefined>;
  /** The user's devices, most recently seen first. */
  list(userId: number): Promise<DeviceRow[]>;
  rename(userId: number, deviceId: number, name: string): Promise<boolean>;
  /** Records what the device plays, and that it was seen. */
  setPlayback(deviceId: number, change: DevicePlaybackChange): Promise<void>;
  /** Marks devices as seen at `at` (live connections, every few minutes). */
  touch(deviceIds: readonly number[], at: string): Promise<void>;
  /** The queue's position moves on, if `deviceId` saved it last (another device's save is not undone). */
  moveQueue(userId: number, deviceId: number, positionMs: number, at: string): Promise<void>;
  /** The saved queue and the device that saved it. */
  queue(userId: number): Promise<SavedQueueRow | undefined>;
}

function devices(db: Kysely<DB>) {
  return db
    .selectFrom('devices as d')
    .leftJoin('songs as s', 's.id', 'd.song_id')
    .leftJoin('artists as a', 'a.id', 's.artist_id')
    .select([
      'd.id',
      'd.user_id',
      'd.key',
      'd.kind',
      'd.name',
      'd.state',
      'd.song_id',
      's.name as song_name',
      'a.name as artist_name',
      's.duration_ms',
      'd.position_ms',
      'd.position_at',
      'd.volume',
      'd.last_seen_at',
    ]);
}

export function createDevicesRepository(db: Kysely<DB>): DevicesRepository {
  async function dropOldest(userId: number, keep: number): Promise<void> {
    const stale = await db
      .selectFrom('devices')
      .select('id')
      .where('user_id', '=', userId)
      .orderBy('last_seen_at', 'desc')
      .orderBy('id', 'desc')
      .offset(keep)
      .limit(1000)
      .execute();
    if (stale.length === 0) return;
    const ids = stale.map((row) => row.id);
    await db.updateTable('play_queues').set({ device_id: null }).where('device_id', 'in', ids).execute();
    await db.deleteFrom('devices').where('id', 'in', ids).execute();
  }

  const repository: DevicesRepository = {
    async register(device, keep) {
      const inserted = await db
        .insertInto('devices')
        .values({
          user_id: device.userId,
          key: device.key,
          kind: device.kind,
          name: device.name,
          created_at: device.at,
          last_seen_at: device.at,
        })
        .onConflict((conflict) => conflict.columns(['user_id', 'key']).doUpdateSet({ last_seen_at: device.at }))
        .returning('id')
        .executeTakeFirstOrThrow();
      await dropOldest(device.userId, keep);
      const row = await repository.find(device.userId, inserted.id);
      if (row === undefined) throw new Error('The device just registered is gone');
      return row;
    },

    find(userId, deviceId) {
      return devices(db).where('d.user_id', '=', userId).where('d.id', '=', deviceId).executeTakeFirst();
    },

    list(userId) {
      return devices(db)
        .where('d.user_id', '=', userId)
        .orderBy('d.last_seen_at', 'desc')
        .orderBy('d.id', 'desc')
        .execute();
    },

    async rename(userId, deviceId, name) {
      const result = await db
        .updateTable('devices')
        .set({ name })
        .where('user_id', '=', userId)
        .where('id', '=', deviceId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async setPlayback(deviceId, change) {
      await db
        .updateTable('devices')
        .set({
          state: change.state,
          song_id: change.songId,
          position_ms: change.positionMs,
          position_at: change.at,
          last_seen_at: change.at,
          ...(change.volume === null ? {} : { volume: change.volume }),
        })
        .where('id', '=', deviceId)
        .execute();
    },

    async touch(deviceIds, at) {
      if (deviceIds.length === 0) return;
      await db.updateTable('devices').set({ last_seen_at: at }).where('id', 'in', deviceIds).execute();
    },

    async moveQueue(userId, deviceId, positionMs, at) {
      await db
        .updateTable('play_queues')
        .set({ position_ms: positionMs, changed_at: at })
        .where('user_id', '=', userId)
        .where('device_id', '=', deviceId)
        .execute();
    },

    async queue(userId) {
      const row = await db
        .selectFrom('play_queues as q')
        .leftJoin('devices as d', (join) => join.onRef('d.id', '=', 'q.device_id').onRef('d.user_id', '=', 'q.user_id'))
        .select([
          'q.current_song_id',
          'q.current_index',
          'q.position_ms',
          'q.changed_at',
          'q.changed_by',
          'd.id as device_id',
          'd.name as device_name',
        ])
        .where('q.user_id', '=', userId)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const songs = await db
        .selectFrom('play_queue_songs')
        .select(['song_id', 'position'])
        .where('user_id', '=', userId)
        .orderBy('position')
        .execute();
      return {
        songIds: songs.map((song) => song.song_id),
        currentIndex: currentIndexOf(songs, row.current_index, row.current_song_id),
        positionMs: row.position_ms,
        changedAt: row.changed_at,
        deviceId: row.device_id,
        deviceName: row.device_name ?? row.changed_by,
      };
    },
  };
  return repository;
}

/**
 * The current place of a saved queue, by its songs' positions (a deleted song leaves a gap): the place saved as
 * current (`position`) while it still holds the current song, else the first place of the current song, else the
 * start.
 */
export function currentIndexOf(
  songs: readonly { song_id: number; position: number }[],
  position: number | null,
  songId: number | null,
): number {
  const saved = position === null ? -1 : songs.findIndex((song) => song.position === position);
  if (saved >= 0 && (songId === null || songs[saved]?.song_id === songId)) return saved;
  const found = songId === null ? -1 : songs.findIndex((song) => song.song_id === songId);
  return Math.max(0, found);
}
