import { listenThresholdMs, type ListenReport, type Song } from '@tonearm/contract';
import { isWelcomeSong } from './welcome-song.js';
import type { ClockStore, PlayerStore } from './player-store.js';

/** A step of the clock longer than this is a seek (or a skip), not listening: it does not count as heard. */
const LISTENING_STEP_MAX_SECONDS = 2;

interface Play {
  song: Song;
  trackKey: number;
  startedAt: string;
  heardSeconds: number;
  lastPosition: number;
  /** What was reported of this play so far (ms heard); null until it reached the rule. */
  reportedMs: number | null;
}

/** Heard this much more since the report at the mark, the end of the play reports it again (the server keeps the most). */
const REPORT_AGAIN_MS = 1000;

/**
 * Counts listens (issue 28): for each play of a song, the seconds actually heard while playing (the clock's small
 * steps; a seek's jump is not heard). A play is reported as soon as it reaches the rule (half the song or 4 minutes; a
 * song of 30 s or less never), so the statistics show it at once (also the last song of a queue, which no next song
 * ends); when the play ends (the next song, a reset, the page hidden or closed) what was heard since is reported again
 * for the same play (its start names it: the server keeps one listen, with the most heard).
 * Returns a stop function that reports the play under way as it stands.
 */
export function countListens(
  store: PlayerStore,
  clock: ClockStore,
  report: (listen: ListenReport, keepalive: boolean) => void,
  now: () => Date = () => new Date(),
): () => void {
  let play: Play | null = null;

  /** Reports the play when it reached the rule and was not reported yet, or was heard well past its report. */
  const reportIfDue = (current: Play, keepalive: boolean) => {
    const threshold = listenThresholdMs(current.song.durationMs);
    const heardMs = Math.round(current.heardSeconds * 1000);
    if (threshold === null || heardMs < threshold) return;
    if (current.reportedMs !== null && heardMs < current.reportedMs + REPORT_AGAIN_MS) return;
    current.reportedMs = heardMs;
    report({ songId: current.song.id, startedAt: current.startedAt, listenedMs: heardMs }, keepalive);
  };

  const settle = (keepalive: boolean) => {
    const ended = play;
    play = null;
    if (ended !== null) reportIfDue(ended, keepalive);
  };

  const begin = () => {
    const state = store.getState();
    if (isWelcomeSong(state.current)) return;
    play = {
      song: state.current,
      trackKey: state.trackKey,
      startedAt: now().toISOString(),
      heardSeconds: 0,
      lastPosition: clock.getState().position,
      reportedMs: null,
    };
  };

  const stopStore = store.subscribe(() => {
    const state = store.getState();
    if (play !== null && play.trackKey === state.trackKey) return;
    settle(false);
    if (state.playing) begin();
  });
  const stopClock = clock.subscribe(() => {
    const position = clock.getState().position;
    const state = store.getState();
    if (play === null) {
      if (state.playing) begin();
      return;
    }
    const step = position - play.lastPosition;
    play.lastPosition = position;
    if (state.playing && step > 0 && step <= LISTENING_STEP_MAX_SECONDS) play.heardSeconds += step;
    if (play.reportedMs === null) reportIfDue(play, false);
  });
  // The page going away ends the play: what was heard is reported with keepalive, so it outlives the page.
  const onPageHide = () => {
    settle(true);
  };
  window.addEventListener('pagehide', onPageHide);
  return () => {
    window.removeEventListener('pagehide', onPageHide);
    stopStore();
    stopClock();
    settle(true);
  };
}
