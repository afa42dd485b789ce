import type { Device, SavedQueue } from '@tonearm/contract';
import { createStore, type Store } from '../player-store.js';

export type OfferedQueue = NonNullable<SavedQueue['queue']>;

export interface DevicesState {
  /** This browser's device, once the live channel said hello. */
  readonly deviceId: number | null;
  /** Every device of the user, as the server last said. */
  readonly devices: readonly Device[];
  /** "Continue from <device> at 2:31": another device's queue, offered when Tonearm opens here. */
  readonly offer: OfferedQueue | null;
}

export type DevicesAction =
  | { type: 'hello'; deviceId: number; devices: readonly Device[] }
  | { type: 'device'; device: Device }
  | { type: 'offer'; offer: OfferedQueue | null };

export function devicesReducer(state: DevicesState, action: DevicesAction): DevicesState {
  switch (action.type) {
    case 'hello':
      return { ...state, deviceId: action.deviceId, devices: action.devices };
    case 'device': {
      const others = state.devices.filter((device) => device.id !== action.device.id);
      return { ...state, devices: [action.device, ...others] };
    }
    case 'offer':
      return { ...state, offer: action.offer };
  }
}

export type DevicesStore = Store<DevicesState, DevicesAction>;

export function createDevicesStore(): DevicesStore {
  return createStore(devicesReducer, { deviceId: null, devices: [], offer: null });
}

/** Where another device's playback is now: the position it reported, moved on while it plays. */
export function positionNowMs(device: Device, now: number = Date.now()): number {
  const playback = device.playback;
  if (playback === null) return 0;
  const moved =
    playback.state === 'playing'
      ? playback.positionMs + Math.max(0, now - Date.parse(playback.at))
      : playback.positionMs;
  return playback.durationMs === null ? moved : Math.min(moved, playback.durationMs);
}
