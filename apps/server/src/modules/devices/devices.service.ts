import {
  DEVICE_ACTIVE_MS,
  DEVICE_QUEUE_MAX,
  DEVICES_PER_USER_MAX,
  DeviceMessages,
  type Device,
  type DeviceCommand,
  type LiveEventName,
  type LiveEvents,
  type PlaybackReport,
} from '@tonearm/contract';
import { conflict, notFound } from '../../http/errors.js';
import type { SongsService, Viewer } from '../songs/songs.service.js';
import type { DeviceRow, DevicesRepository, SavedQueueRow } from './devices.repository.js';
import { deviceNameFromAgent } from './device-name.js';
import { positionNow, toDevice, type ViewedQueue } from './devices.presenter.js';
import type { LiveHub, LiveMessage } from './live-hub.js';

/** A queue to save: ids in play order, the current song and its place, who saved it. */
export interface QueueToSave {
  currentSongId: number | null;
  currentIndex?: number | null;
  positionMs: number;
  changedAt: string;
  changedBy: string;
  songIds: readonly number[];
  deviceId?: number | null;
}

/** The queue writer the devices share with Subsonic's savePlayQueue (migration 012's tables). */
export interface QueueWriter {
  savePlayQueue(userId: number, queue: QueueToSave): Promise<void>;
  clearPlayQueue(userId: number): Promise<void>;
}

/** A report of a Subsonic app (reportPlayback), as the devices see it. */
export interface AppPlayback {
  state: 'starting' | 'playing' | 'paused' | 'stopped';
  songId: number;
  positionMs: number;
}

/**
 * One queue across devices (issue 27). Every web client and Subsonic app of a user is a device; the user's queue (the
 * one Subsonic's savePlayQueue saves too) moves with whichever device saved it last; each change is published to the
 * user's live channels, on every instance. A device is its user's alone: any other caller, administrators included,
 * finds no such device (404).
 */
export class DevicesService {
  constructor(
    private readonly devices: DevicesRepository,
    private readonly queues: QueueWriter,
    private readonly songs: Pick<SongsService, 'listByIds'>,
    readonly hub: LiveHub,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** A web client's live channel opens: its device (made on its first visit, named after its browser). */
  async connectWeb(userId: number, key: string, userAgent: string | undefined): Promise<Device> {
    const at = this.now();
    const row = await this.devices.register(
      { userId, key: `web:${key}`, kind: 'web', name: deviceNameFromAgent(userAgent), at: at.toISOString() },
      DEVICES_PER_USER_MAX,
    );
    const device = toDevice(row, at);
    await this.publish(userId, 'device', { device });
    return device;
  }

  /** The first event of a channel: the whole state (on a reconnect too). */
  async hello(userId: number, deviceId: number): Promise<LiveEvents['hello']> {
    return { deviceId, devices: await this.list(userId) };
  }

  /** A web client's last channel closed: it no longer counts as active (it was seen a whole window ago). */
  async disconnectWeb(userId: number, deviceId: number): Promise<void> {
    const gone = new Date(this.now().getTime() - DEVICE_ACTIVE_MS).toISOString();
    await this.devices.touch([deviceId], gone);
    const row = await this.devices.find(userId, deviceId);
    if (row !== undefined) await this.publish(userId, 'device', { device: toDevice(row, this.now()) });
  }

  async touch(deviceIds: readonly number[]): Promise<void> {
    await this.devices.touch(deviceIds, this.now().toISOString());
  }

  async list(userId: number): Promise<Device[]> {
    const at = this.now();
    return (await this.devices.list(userId)).map((row) => toDevice(row, at));
  }

  async rename(userId: number, deviceId: number, name: string): Promise<Device> {
    if (!(await this.devices.rename(userId, deviceId, name))) throw notFound(DeviceMessages.deviceNotFound);
    return this.published(userId, deviceId);
  }

  /** A web client's report: its playback, and with `queue` the user's queue. */
  async report(viewer: Viewer, deviceId: number, report: PlaybackReport): Promise<void> {
    const device = await this.own(viewer.id, deviceId);
    const at = this.now().toISOString();
    // One read of the songs the report names: a song that is gone or that the viewer may not see is not recorded.
    const named = [...new Set([...(report.songId === null ? [] : [report.songId]), ...(report.queue?.songIds ?? [])])];
    const seen = new Set((await this.songs.listByIds(viewer, named)).rows.map((row) => row.id));
    const songId = report.songId !== null && seen.has(report.songId) ? report.songId : null;
    await this.devices.setPlayback(device.id, { ...report, songId, at });
    if (report.queue === undefined) {
      await this.devices.moveQueue(viewer.id, device.id, report.positionMs, at);
    } else {
      await this.saveWebQueue(viewer.id, device, report.queue, seen, report.positionMs, at);
    }
    await this.published(viewer.id, device.id);
  }

  /** Remote control: the command goes to the device's live channels. */
  async command(userId: number, deviceId: number, command: DeviceCommand): Promise<void> {
    const device = await this.own(userId, deviceId);
    if (device.kind !== 'web') throw conflict(DeviceMessages.notControllable);
    await this.publish(userId, 'command', { command }, { to: device.id });
  }

  /**
   * Moves playback to the device: it takes over the user's queue where it is now (the position of the device that
   * saved it, moved on while that one plays), and every other device of the user pauses.
   */
  async transfer(userId: number, deviceId: number): Promise<void> {
    const device = await this.own(userId, deviceId);
    if (device.kind !== 'web') throw conflict(DeviceMessages.notControllable);
    const queue = await this.devices.queue(userId);
    if (queue === undefined || queue.songIds.length === 0) throw conflict(DeviceMessages.nothingToMove);
    const positionMs = await this.queuePosition(userId, queue);
    await this.publish(userId, 'command', { command: { type: 'pause' } }, { except: device.id });
    await this.publish(userId, 'takeOver', { positionMs, currentIndex: queue.currentIndex }, { to: device.id });
  }

  /** The saved queue, to continue on another device; null when there is none. */
  async savedQueue(viewer: Viewer): Promise<ViewedQueue | null> {
    const queue = await this.devices.queue(viewer.id);
    if (queue === undefined || queue.songIds.length === 0) return null;
    const listing = await this.songs.listByIds(viewer, queue.songIds);
    // The songs the viewer still sees, in queue order (a song may be there twice); the current place among them.
    const byId = new Map(listing.rows.map((row) => [row.id, row]));
    const kept = queue.songIds.flatMap((id, index) => (byId.has(id) ? [{ id, index }] : []));
    if (kept.length === 0) return null;
    const currentIndex = Math.max(
      0,
      kept.findIndex((entry) => entry.index >= queue.currentIndex),
    );
    const rows = kept.flatMap((entry) => {
      const row = byId.get(entry.id);
      return row === undefined ? [] : [row];
    });
    return {
      listing: { rows, marks: listing.marks },
      currentIndex,
      positionMs: await this.queuePosition(viewer.id, queue),
      changedAt: queue.changedAt,
      changedBy: queue.deviceName ?? '',
      device:
        queue.deviceId === null || queue.deviceName === null ? null : { id: queue.deviceId, name: queue.deviceName },
    };
  }

  /** A Subsonic app's device (its `c`), seen now. */
  async appDevice(userId: number, client: string): Promise<DeviceRow> {
    return this.devices.register(
      { userId, key: `subsonic:${client}`, kind: 'subsonic', name: client, at: this.now().toISOString() },
      DEVICES_PER_USER_MAX,
    );
  }

  /** Subsonic's savePlayQueue(ByIndex): the app's queue becomes the user's (an empty one clears it). */
  async appSavedQueue(userId: number, client: string, queue: Omit<QueueToSave, 'deviceId' | 'changedBy'>) {
    const device = await this.appDevice(userId, client);
    if (queue.songIds.length === 0) await this.queues.clearPlayQueue(userId);
    else await this.queues.savePlayQueue(userId, { ...queue, deviceId: device.id, changedBy: client });
    await this.publish(userId, 'queue', { deviceId: device.id, changedAt: queue.changedAt });
  }

  /** Subsonic's reportPlayback: the app's device plays (or stopped), as the devices menu shows it. */
  async appPlayback(userId: number, client: string, playback: AppPlayback): Promise<void> {
    const device = await this.appDevice(userId, client);
    const state = playback.state === 'starting' ? 'playing' : playback.state;
    const at = this.now().toISOString();
    await this.devices.setPlayback(device.id, {
      state,
      songId: playback.songId,
      positionMs: playback.positionMs,
      volume: null,
      at,
    });
    await this.devices.moveQueue(userId, device.id, playback.positionMs, at);
    await this.published(userId, device.id);
  }

  /** `seen`: the queue's songs that exist and the viewer sees (one deleted meanwhile is left out, not an error). */
  private async saveWebQueue(
    userId: number,
    device: DeviceRow,
    queue: NonNullable<PlaybackReport['queue']>,
    seen: ReadonlySet<number>,
    positionMs: number,
    at: string,
  ): Promise<void> {
    const songIds = queue.songIds.filter((id) => seen.has(id)).slice(0, DEVICE_QUEUE_MAX);
    const current = queue.songIds[queue.currentIndex];
    const before = queue.songIds.slice(0, queue.currentIndex).filter((id) => seen.has(id)).length;
    const currentIndex = current !== undefined && seen.has(current) ? before : Math.min(before, songIds.length - 1);
    if (songIds.length === 0) return;
    await this.queues.savePlayQueue(userId, {
      songIds,
      currentIndex,
      currentSongId: songIds[currentIndex] ?? null,
      positionMs,
      changedAt: at,
      changedBy: device.name,
      deviceId: device.id,
    });
    await this.publish(userId, 'queue', { deviceId: device.id, changedAt: at });
  }

  /** Where the saved queue's current song is now: moved on while the device that saved it still plays that song. */
  private async queuePosition(userId: number, queue: SavedQueueRow): Promise<number> {
    const saver = queue.deviceId === null ? undefined : await this.devices.find(userId, queue.deviceId);
    const current = queue.songIds[queue.currentIndex];
    if (saver === undefined || saver.state === null || saver.song_id !== current) return queue.positionMs;
    return positionNow(saver, this.now());
  }

  private async own(userId: number, deviceId: number): Promise<DeviceRow> {
    const device = await this.devices.find(userId, deviceId);
    if (device === undefined) throw notFound(DeviceMessages.deviceNotFound);
    return device;
  }

  /** The device as it is now, published to the user's channels, and answered. */
  private async published(userId: number, deviceId: number): Promise<Device> {
    const device = toDevice(await this.own(userId, deviceId), this.now());
    await this.publish(userId, 'device', { device });
    return device;
  }

  private publish<E extends LiveEventName>(
    userId: number,
    event: E,
    data: LiveEvents[E],
    target: Pick<LiveMessage, 'to' | 'except'> = {},
  ): Promise<void> {
    return this.hub.publish({ userId, event, data, ...target });
  }
}
