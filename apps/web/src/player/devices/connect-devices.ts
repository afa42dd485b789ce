import type { Device, LiveEventName, LiveEvents } from '@tonearm/contract';
import { api } from '../../lib/api.js';
import type { PlayerRuntime } from '../player-runtime.js';
import { isWelcomeSong } from '../welcome-song.js';
import { deviceKey } from './device-key.js';
import type { DevicesStore } from './devices-store.js';
import { connectPlaybackReporter } from './playback-reporter.js';
import { applyCommand, playSavedQueue } from './remote-playback.js';

/**
 * This browser as a device of its user (issue 27): one live channel (server-sent events; the browser reconnects by
 * itself, and every connection starts with a `hello` that carries the whole state again), the playback reporter,
 * remote commands applied to the player, and the "continue from another device" offer made once, at the first hello.
 * Without EventSource (tests in jsdom) nothing connects.
 */
export function connectDevices(runtime: PlayerRuntime, devices: DevicesStore): () => void {
  if (typeof EventSource === 'undefined') return () => undefined;
  const source = new EventSource(`/api/live?device=${deviceKey()}`);
  let offered = false;
  const on = <E extends LiveEventName>(event: E, handle: (data: LiveEvents[E]) => void) => {
    source.addEventListener(event, (message: MessageEvent<string>) => {
      handle(JSON.parse(message.data) as LiveEvents[E]);
    });
  };

  on('hello', (hello) => {
    devices.dispatch({ type: 'hello', deviceId: hello.deviceId, devices: hello.devices });
    if (offered) return;
    offered = true;
    void offerQueue(runtime, devices, hello.deviceId);
  });
  on('device', ({ device }) => {
    devices.dispatch({ type: 'device', device });
  });
  on('command', ({ command }) => {
    applyCommand(runtime, command);
  });
  on('takeOver', ({ positionMs }) => {
    void api.devices.queue().then(({ queue }) => {
      if (queue !== null) playSavedQueue(runtime, queue, positionMs);
    });
  });

  const stopReporting = connectPlaybackReporter(runtime, () => devices.getState().deviceId);
  return () => {
    stopReporting();
    source.close();
  };
}

/** Offers another device's queue when this one has nothing playing and the queue is not this device's own. */
async function offerQueue(runtime: PlayerRuntime, devices: DevicesStore, deviceId: number): Promise<void> {
  const { queue } = await api.devices.queue().catch(() => ({ queue: null }));
  if (queue?.device == null || queue.device.id === deviceId) return;
  const state = runtime.store.getState();
  if (state.playing) return;
  const current = queue.songs[queue.currentIndex];
  // The same song at the same place here already: nothing to continue.
  if (current !== undefined && !isWelcomeSong(state.current) && state.current.id === current.id) {
    if (Math.abs(runtime.clock.getState().position * 1000 - queue.positionMs) < 5000) return;
  }
  devices.dispatch({ type: 'offer', offer: queue });
}

/** The devices other than this one that count as active, most recently seen first. */
export function otherDevices(all: readonly Device[], deviceId: number | null): Device[] {
  return all.filter((device) => device.id !== deviceId && device.active);
}
