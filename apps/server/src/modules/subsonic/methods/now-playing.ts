import { plainText } from '@tonearm/contract';
import type { NowPlayingRow } from '../subsonic-activity.repository.js';
import type { SubsonicParams } from '../subsonic-params.js';
import type { SubsonicNode } from '../subsonic.response.js';

/** How long a "now playing" report counts (getNowPlaying): a song's length, give or take. */
export const NOW_PLAYING_WINDOW_MS = 10 * 60 * 1000;
/** `changedBy` / `playerName` when the app did not say who it is (`c`). */
const UNKNOWN_CLIENT = 'unknown';
/** The longest app name (`c`) kept; apps send short names such as "DSub" or "Symfonium". */
const CLIENT_NAME_MAX = 100;

/** The app's name (`c`) as other users' apps are shown it: no control characters (plainText), at most 100 long. */
export function clientName(params: SubsonicParams): string {
  const name = plainText(params.get('c') ?? '')
    .trim()
    .slice(0, CLIENT_NAME_MAX);
  return name === '' ? UNKNOWN_CLIENT : name;
}

/**
 * What getNowPlaying adds to an entry that reportPlayback reported (OpenSubsonic playbackReport): the state, the
 * playback rate and where the playback is now. The server's clock moves only while the state is `playing`: the position
 * reported, plus the time since at the playback rate, never past the song's end (`durationMs`, when known).
 */
export function playbackFields(row: NowPlayingRow, durationMs: number | null, now: Date): SubsonicNode {
  if (row.state === null || row.position_ms === null) return {};
  const rate = row.playback_rate ?? 1;
  const since = row.position_at === null ? 0 : Math.max(0, now.getTime() - Date.parse(row.position_at));
  const moved = row.state === 'playing' ? row.position_ms + Math.round(since * rate) : row.position_ms;
  const positionMs = durationMs === null ? moved : Math.min(moved, Math.max(durationMs, row.position_ms));
  return { state: row.state, positionMs, playbackRate: rate };
}
