import {
  DEVICE_QUEUE_MAX,
  DEVICE_REPORT_INTERVAL_MS,
  endpoints,
  fillPath,
  type PlaybackReport,
} from '@tonearm/contract';
import type { PlayerRuntime } from '../player-runtime.js';
import type { PlayerState } from '../player-store.js';
import { isWelcomeSong } from '../welcome-song.js';

/** Reports close together (a skip that also changes the queue) go as one. */
const GATHER_MS = 250;
/** A position this far from where the last report said it would be is a seek: reported at once. */
const SEEK_JUMP_SECONDS = 3;
/** Songs kept before the current one in the window of the queue that is sent. */
const HISTORY = 100;

/** The queue as the server keeps it: a window of at most DEVICE_QUEUE_MAX ids around the current song. */
export function queueWindow(state: PlayerState): NonNullable<PlaybackReport['queue']> {
  const start = Math.max(0, Math.min(state.index - HISTORY, state.queue.length - DEVICE_QUEUE_MAX));
  return { songIds: state.queue.slice(start, start + DEVICE_QUEUE_MAX), currentIndex: state.index - start };
}

const signatureOf = (state: PlayerState) => `${String(state.index)}:${state.queue.join(',')}`;

/**
 * Tells the server where this device's playback is (issue 27): every DEVICE_REPORT_INTERVAL_MS while playing, and at
 * once on play or pause, a skip, a queue change, a seek, a volume change and when the page is hidden (with
 * `keepalive`, so the report outlives the page). The queue goes along only when it changed since the last report: then
 * it becomes the user's queue. Nothing is reported before the user does something here (opening the app claims
 * nothing), nor for the welcome song.
 */
export function connectPlaybackReporter(runtime: PlayerRuntime, deviceId: () => number | null): () => void {
  const { store, clock } = runtime;
  let signature = signatureOf(store.getState());
  let { playing, volume } = store.getState();
  let queueChanged = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let reported = { position: clock.getState().position, at: Date.now() };
  let acted = false;

  const bodyOf = (withQueue: boolean): PlaybackReport | null => {
    const state = store.getState();
    if (isWelcomeSong(state.current)) return null;
    const positionMs = Math.round(clock.getState().position * 1000);
    return {
      state: state.playing ? 'playing' : 'paused',
      songId: state.current.id,
      positionMs,
      volume: state.volume,
      ...(withQueue ? { queue: queueWindow(state) } : {}),
    };
  };

  const send = (keepalive = false): void => {
    clearTimeout(timer);
    timer = undefined;
    const id = deviceId();
    if (id === null || !acted) return;
    const body = bodyOf(queueChanged);
    if (body === null) return;
    queueChanged = false;
    reported = { position: clock.getState().position, at: Date.now() };
    // A report lost (offline, a restart) is made good by the next one.
    fetch(fillPath(endpoints.devices.report.path, { deviceId: id }), {
      method: 'PUT',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      keepalive,
    }).catch(() => undefined);
  };

  const soon = () => {
    acted = true;
    timer ??= setTimeout(send, GATHER_MS);
  };

  const stopStore = store.subscribe(() => {
    const state = store.getState();
    const next = signatureOf(state);
    if (next !== signature) {
      signature = next;
      queueChanged = true;
      soon();
    }
    if (state.playing !== playing || state.volume !== volume) {
      playing = state.playing;
      volume = state.volume;
      soon();
    }
  });
  const stopClock = clock.subscribe(() => {
    if (!acted) return;
    const expected = reported.position + (playing ? (Date.now() - reported.at) / 1000 : 0);
    if (Math.abs(clock.getState().position - expected) > SEEK_JUMP_SECONDS) soon();
  });
  const ticker = setInterval(() => {
    if (store.getState().playing) send();
  }, DEVICE_REPORT_INTERVAL_MS);
  const onHide = () => {
    if (document.visibilityState === 'hidden' || !document.hasFocus()) send(true);
  };
  const onPageHide = () => {
    send(true);
  };
  document.addEventListener('visibilitychange', onHide);
  window.addEventListener('pagehide', onPageHide);

  return () => {
    clearTimeout(timer);
    clearInterval(ticker);
    stopStore();
    stopClock();
    document.removeEventListener('visibilitychange', onHide);
    window.removeEventListener('pagehide', onPageHide);
  };
}
