import type { Device } from '@tonearm/contract';
import { describe, expect, it } from 'vitest';
import { initialPlayerState, type PlayerState } from '../player-store.js';
import { otherDevices } from './connect-devices.js';
import { createDevicesStore, positionNowMs } from './devices-store.js';
import { queueWindow } from './playback-reporter.js';

function device(id: number, changes: Partial<Device> = {}): Device {
  return {
    id,
    name: `Device ${id}`,
    kind: 'web',
    active: true,
    lastSeenAt: '2026-01-01T00:00:00Z',
    playback: null,
    ...changes,
  };
}

describe('devices on the web', () => {
  it('keeps the latest of each device, first the one that changed last', () => {
    const store = createDevicesStore();
    store.dispatch({ type: 'hello', deviceId: 1, devices: [device(1), device(2)] });
    store.dispatch({ type: 'device', device: device(2, { name: 'Kitchen' }) });
    expect(store.getState().devices.map((d) => [d.id, d.name])).toEqual([
      [2, 'Kitchen'],
      [1, 'Device 1'],
    ]);
    expect(otherDevices(store.getState().devices, 1).map((d) => d.id)).toEqual([2]);
    expect(otherDevices([device(3, { active: false })], 1)).toEqual([]);
  });

  it('moves another device’s position on while it plays, never past the song’s end', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const playback = {
      state: 'playing' as const,
      songId: 1,
      songName: 'A',
      artistName: null,
      positionMs: 1000,
      at,
      volume: 1,
      durationMs: 5000,
    };
    const start = Date.parse(at);
    expect(positionNowMs(device(1, { playback }), start + 2000)).toBe(3000);
    expect(positionNowMs(device(1, { playback }), start + 60_000)).toBe(5000);
    expect(positionNowMs(device(1, { playback: { ...playback, state: 'paused' } }), start + 2000)).toBe(1000);
  });

  it('sends a window of the queue around the current song, with its place in it', () => {
    const queue = Array.from({ length: 1500 }, (_, index) => index + 1);
    const state: PlayerState = { ...initialPlayerState, queue, index: 700 };
    const window = queueWindow(state);
    expect(window.songIds).toHaveLength(1000);
    expect(window.songIds[window.currentIndex]).toBe(701);
    // 100 songs before the current one; near the end the window reaches back further to stay full.
    expect(queueWindow({ ...state, index: 300 }).currentIndex).toBe(100);
    expect(window.currentIndex).toBe(200);
    const short = queueWindow({ ...initialPlayerState, queue: [5, 6, 7], index: 2 });
    expect(short).toEqual({ songIds: [5, 6, 7], currentIndex: 2 });
  });
});
