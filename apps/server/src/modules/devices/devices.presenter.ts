import { DEVICE_ACTIVE_MS, type Device, type SavedQueue } from '@tonearm/contract';
import { toSongsJson } from '../songs/songs.presenter.js';
import type { DeviceRow } from './devices.repository.js';
import type { SongListing } from '../songs/songs.service.js';

/** Where a playback is now: the position reported, moved on by the time since while it plays. */
export function positionNow(row: Pick<DeviceRow, 'state' | 'position_ms' | 'position_at'>, now: Date): number {
  const reported = row.position_ms ?? 0;
  if (row.state !== 'playing' || row.position_at === null) return reported;
  return reported + Math.max(0, now.getTime() - Date.parse(row.position_at));
}

export function toDevice(row: DeviceRow, now: Date): Device {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    active: now.getTime() - Date.parse(row.last_seen_at) < DEVICE_ACTIVE_MS,
    lastSeenAt: row.last_seen_at,
    playback:
      row.state === null || row.position_at === null
        ? null
        : {
            state: row.state,
            songId: row.song_id,
            songName: row.song_name,
            artistName: row.artist_name,
            durationMs: row.duration_ms,
            positionMs: row.position_ms ?? 0,
            at: row.position_at,
            volume: row.volume,
          },
  };
}

/** The saved queue as a viewer sees it: the songs they still see, the current place among them. */
export interface ViewedQueue {
  listing: SongListing;
  currentIndex: number;
  positionMs: number;
  changedAt: string;
  /** Who saved it: the device's name now, or what the app called itself. */
  changedBy: string;
  device: { id: number; name: string } | null;
}

/** The saved queue as GET /api/queue answers it. */
export function toSavedQueue(queue: ViewedQueue | null): SavedQueue {
  if (queue === null) return { queue: null };
  const { listing, currentIndex, positionMs, changedAt, device } = queue;
  return { queue: { songs: toSongsJson(listing), currentIndex, positionMs, changedAt, device } };
}
