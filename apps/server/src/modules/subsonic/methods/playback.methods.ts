import { SubsonicMessages } from '@tonearm/contract';
import type { SubsonicDeps } from '../subsonic-deps.js';
import { idOfKind } from '../subsonic-ids.js';
import { intParam, notFoundError, requiredParam, subsonicFail, type MethodTable } from '../subsonic-method.js';
import type { SubsonicParams } from '../subsonic-params.js';
import type { PlaybackReport } from '../subsonic-activity.repository.js';
import { clientName, NOW_PLAYING_WINDOW_MS } from './now-playing.js';

/** A playback counts as a play once it reached half the song, or this much of a longer one (as Last.fm counts). */
export const PLAYED_AFTER_MS = 4 * 60 * 1000;
const STATES = ['starting', 'playing', 'paused', 'stopped'] as const;
/** Playback rates an app may report (a speed of 0 plays nothing). */
const RATE = /^(?:\d{1,2}(?:\.\d{1,6})?|\.\d{1,6})$/;

/** The reported position from which a playback of a song of `durationMs` (null: unknown) counts as a play. */
export function playedAfter(durationMs: number | null): number {
  return durationMs === null ? PLAYED_AFTER_MS : Math.min(PLAYED_AFTER_MS, Math.ceil(durationMs / 2));
}

function stateParam(params: SubsonicParams): PlaybackReport['state'] | 'stopped' {
  const state = requiredParam(params, 'state');
  const known = STATES.find((name) => name === state);
  if (known === undefined) throw subsonicFail('generic', SubsonicMessages.badPlaybackState(state));
  return known;
}

function rateParam(params: SubsonicParams): number {
  const raw = params.get('playbackRate');
  if (raw === undefined) return 1;
  if (!RATE.test(raw) || Number(raw) === 0) throw subsonicFail('generic', SubsonicMessages.badPlaybackRate);
  return Number(raw);
}

function ignoreScrobbleParam(params: SubsonicParams): boolean {
  const raw = params.get('ignoreScrobble');
  if (raw === undefined) return false;
  if (raw !== 'true' && raw !== 'false') throw subsonicFail('generic', SubsonicMessages.badBoolean('ignoreScrobble'));
  return raw === 'true';
}

/** reportPlayback's parameters: all four required ones (10 without one), each checked (0, or 70 for no song id). */
function reportParams(params: SubsonicParams) {
  const mediaId = requiredParam(params, 'mediaId');
  const mediaType = requiredParam(params, 'mediaType');
  requiredParam(params, 'positionMs');
  const positionMs = intParam(params, 'positionMs', 0, 0, Number.MAX_SAFE_INTEGER);
  const state = stateParam(params);
  const playbackRate = rateParam(params);
  const ignoreScrobble = ignoreScrobbleParam(params);
  // Tonearm has no podcasts: such an id names nothing here.
  if (mediaType === 'podcast') throw notFoundError('Podcast episode');
  if (mediaType !== 'song') throw subsonicFail('generic', SubsonicMessages.badMediaType(mediaType));
  return { songId: idOfKind(mediaId, 'song'), positionMs, state, playbackRate, ignoreScrobble };
}

/**
 * `reportPlayback` (OpenSubsonic playbackReport): where an app's playback of a song is. It keeps the app's entry of
 * getNowPlaying (its state, position and rate; the entry goes when the playback stops) and, unless `ignoreScrobble`,
 * records the play in the play history as scrobble does, once per playback, when a report says it reached half the
 * song or four minutes (never on the server's estimate alone). A playback is one app's, from `starting` (or a report
 * of another song) to `stopped`; a `stopped` with no playback under way changes nothing.
 */
export function playbackMethods(deps: SubsonicDeps, now: () => Date = () => new Date()): MethodTable {
  const { activity } = deps;
  return {
    reportPlayback: {
      run: async ({ params, caller }) => {
        const { songId, positionMs, state, playbackRate, ignoreScrobble } = reportParams(params);
        const song = songId === null ? undefined : (await deps.songs.listByIds(caller.user, [songId])).rows[0];
        if (songId === null || song === undefined) throw notFoundError('Song');

        const at = now();
        const client = clientName(params);
        const played = !ignoreScrobble && positionMs >= playedAfter(song.duration_ms);
        const countPlay = async () => {
          if (played && (await activity.countPlayback(caller.user.id, client, songId))) {
            await deps.plays.record(caller.user, songId, at);
          }
        };
        // The app is a device of its user: the devices menu shows what it plays (issue 27).
        await deps.devices.appPlayback(caller.user.id, client, { state, songId, positionMs });
        if (state === 'stopped') {
          // The end of the playback under way (none: nothing to count, e.g. the same report sent again).
          await countPlay();
          await activity.clearNowPlaying(caller.user.id, client);
          return {};
        }
        const staleBefore = new Date(at.getTime() - NOW_PLAYING_WINDOW_MS).toISOString();
        const report = { songId, state, positionMs, playbackRate, at: at.toISOString() };
        await activity.reportPlayback(caller.user.id, client, report, staleBefore);
        await countPlay();
        return {};
      },
    },
  };
}
