import { mayDownload, SubsonicMessages } from '@tonearm/contract';
import type { UserRow } from '../../../db/schema.js';
import type { SessionViewer } from '../../../http/session.js';
import { subjectOf } from '../../../http/access.js';
import { idOfKind, subsonicId } from '../subsonic-ids.js';
import { musicFoldersOf } from '../music-folders.js';
import { intParam, notFoundError, requiredParam, subsonicFail, type MethodTable } from '../subsonic-method.js';
import type { SubsonicParams } from '../subsonic-params.js';
import type { SubsonicDeps } from '../subsonic-deps.js';
import type { SubsonicNode } from '../subsonic.response.js';
import { clientName, NOW_PLAYING_WINDOW_MS, playbackFields } from './now-playing.js';

/** Songs a saved play queue may hold. */
export const PLAY_QUEUE_MAX = 5000;
/** `changed` of a play queue never saved (or cleared): the epoch. */
const NEVER_CHANGED = new Date(0).toISOString();
const isAdmin = (user: UserRow) => user.role === 'ADMIN';

/** Song ids of a repeated `id` (10 when there is none, 70 for one that cannot name a song). */
function songIdsParam(params: SubsonicParams, required: boolean): number[] {
  const raw = params.getAll('id');
  if (required && raw.length === 0) throw subsonicFail('missingParameter', SubsonicMessages.missingParameter('id'));
  return raw.map((text) => {
    const id = idOfKind(text, 'song');
    if (id === null) throw notFoundError('Song');
    return id;
  });
}

/** `time` (ms since the epoch), once per id or not at all. */
function timesParam(params: SubsonicParams, count: number): (Date | undefined)[] {
  const raw = params.getAll('time');
  if (raw.length === 0) return Array.from({ length: count }, () => undefined);
  if (raw.length !== count) throw subsonicFail('generic', SubsonicMessages.timesDoNotMatch);
  return raw.map((text) => {
    if (!/^\d{1,15}$/.test(text)) throw subsonicFail('generic', SubsonicMessages.badNumber('time'));
    return new Date(Number(text));
  });
}

/**
 * Activity: `scrobble` (plays into the web app's play history; now playing), `getNowPlaying`, the play queue saved to
 * resume on another device (`savePlayQueue`, `getPlayQueue`) and `getUser`. Now playing and the queue live in the
 * database (migration 012), so every instance of the server sees the same.
 */
export function activityMethods(deps: SubsonicDeps, now: () => Date = () => new Date()): MethodTable {
  const { activity } = deps;
  const { marks } = deps;

  /** The app's queue becomes the user's, every device's (an empty one clears it). */
  async function saveQueue(
    user: SessionViewer,
    params: SubsonicParams,
    queue: { songIds: number[]; currentSongId: number | null; currentIndex?: number; positionMs: number },
  ): Promise<void> {
    await deps.devices.appSavedQueue(user.id, clientName(params), { ...queue, changedAt: now().toISOString() });
  }

  /** The songs of `ids` as the caller sees them, in that order (70 when one does not exist). */
  async function childrenOf(user: SessionViewer, ids: readonly number[]): Promise<SubsonicNode[]> {
    const listing = await deps.songs.listByIds(user, ids);
    if (listing.rows.length !== ids.length) throw notFoundError('Song');
    return marks.songs(user, listing);
  }

  return {
    scrobble: {
      run: async ({ params, caller }) => {
        const ids = songIdsParam(params, true);
        const times = timesParam(params, ids.length);
        const submission = params.get('submission') !== 'false';
        // Every id must name a song before anything is recorded.
        const listing = await deps.songs.listByIds(caller.user, [...new Set(ids)]);
        if (listing.rows.length !== new Set(ids).size) throw notFoundError('Song');
        const client = clientName(params);
        if (!submission) {
          const at = now();
          const songId = ids[ids.length - 1] ?? 0;
          const staleBefore = new Date(at.getTime() - NOW_PLAYING_WINDOW_MS).toISOString();
          await activity.setNowPlaying(caller.user.id, client, songId, at.toISOString(), staleBefore);
          await deps.plays.started(caller.user.id, songId);
          return {};
        }
        const lengths = new Map(listing.rows.map((row) => [row.id, row.duration_ms ?? 0]));
        for (const [index, songId] of ids.entries()) {
          await deps.plays.record(caller.user, songId, times[index]);
          // The app scrobbles a listen once it counted (its own half-or-4-minutes rule); it says no more of how much
          // was heard, so the song's length stands for it.
          await deps.plays.counted(
            caller.user,
            songId,
            times[index] ?? now(),
            lengths.get(songId) ?? 0,
            'subsonic',
            client,
          );
        }
        return {};
      },
    },
    getNowPlaying: {
      run: async ({ caller }) => {
        const at = now();
        const rows = await activity.nowPlayingSince(new Date(at.getTime() - NOW_PLAYING_WINDOW_MS).toISOString());
        // `entry` is required: an empty list when nobody plays anything.
        if (rows.length === 0) return { nowPlaying: { entry: [] } };
        const listing = await deps.songs.listByIds(caller.user, [...new Set(rows.map((row) => row.song_id))]);
        const songs = await marks.songs(caller.user, listing);
        const children = new Map(listing.rows.map((song, index) => [song.id, { song, child: songs[index] }]));
        const entry = rows.flatMap((row) => {
          const found = children.get(row.song_id);
          if (found?.child === undefined) return [];
          const minutesAgo = Math.max(0, Math.floor((at.getTime() - Date.parse(row.reported_at)) / 60_000));
          const who = { username: row.username, minutesAgo, playerId: row.id, playerName: row.client };
          return [{ ...found.child, ...who, ...playbackFields(row, found.song.duration_ms, at) }];
        });
        return { nowPlaying: { entry } };
      },
    },
    savePlayQueue: {
      run: async ({ params, caller }) => {
        const ids = songIdsParam(params, false);
        if (ids.length === 0) {
          await saveQueue(caller.user, params, { songIds: [], currentSongId: null, positionMs: 0 });
          return {};
        }
        if (ids.length > PLAY_QUEUE_MAX) throw subsonicFail('generic', SubsonicMessages.queueTooLong(PLAY_QUEUE_MAX));
        const current = params.get('current');
        const currentId = current === undefined ? null : idOfKind(current, 'song');
        if (current !== undefined && (currentId === null || !ids.includes(currentId))) {
          throw subsonicFail('generic', SubsonicMessages.currentNotInQueue);
        }
        const positionMs = intParam(params, 'position', 0, 0, Number.MAX_SAFE_INTEGER);
        await childrenOf(caller.user, [...new Set(ids)]);
        await saveQueue(caller.user, params, { songIds: ids, currentSongId: currentId, positionMs });
        return {};
      },
    },
    savePlayQueueByIndex: {
      run: async ({ params, caller }) => {
        const ids = songIdsParam(params, false);
        const index = params.get('currentIndex');
        if (ids.length === 0) {
          // Clearing the queue takes no currentIndex.
          if (index !== undefined) throw subsonicFail('missingParameter', SubsonicMessages.missingParameter('id'));
          await saveQueue(caller.user, params, { songIds: [], currentSongId: null, positionMs: 0 });
          return {};
        }
        if (ids.length > PLAY_QUEUE_MAX) throw subsonicFail('generic', SubsonicMessages.queueTooLong(PLAY_QUEUE_MAX));
        if (index === undefined)
          throw subsonicFail('missingParameter', SubsonicMessages.missingParameter('currentIndex'));
        // Out of the queue's range is error 10, as the extension says.
        if (!/^\d{1,9}$/.test(index) || Number(index) >= ids.length) {
          throw subsonicFail('missingParameter', SubsonicMessages.badCurrentIndex(ids.length));
        }
        const currentIndex = Number(index);
        const raw = params.get('position');
        const positionMs = raw === '' ? 0 : intParam(params, 'position', 0, 0, Number.MAX_SAFE_INTEGER);
        await childrenOf(caller.user, [...new Set(ids)]);
        await saveQueue(caller.user, params, {
          songIds: ids,
          currentSongId: ids[currentIndex] ?? null,
          currentIndex,
          positionMs,
        });
        return {};
      },
    },
    getPlayQueueByIndex: {
      run: async ({ caller }) => {
        const queue = await deps.devices.savedQueue(caller.user);
        if (queue === null) {
          return { playQueueByIndex: { username: caller.user.username, changed: NEVER_CHANGED, changedBy: '' } };
        }
        return {
          playQueueByIndex: {
            currentIndex: queue.currentIndex,
            position: queue.positionMs,
            username: caller.user.username,
            changed: queue.changedAt,
            changedBy: queue.changedBy,
            entry: await marks.songs(caller.user, queue.listing),
          },
        };
      },
    },
    getPlayQueue: {
      run: async ({ caller }) => {
        const queue = await activity.playQueue(caller.user.id);
        // `playQueue` is required, and so are its `username`, `changed` and `changedBy`: nothing saved is a queue
        // without songs, changed at the epoch (never) by nobody.
        if (queue === undefined) {
          return { playQueue: { username: caller.user.username, changed: NEVER_CHANGED, changedBy: '' } };
        }
        // The songs the caller sees: those of a library hidden from them since are left out, and so is `current`.
        const listing = await deps.songs.listByIds(caller.user, queue.songIds);
        const current = listing.rows.some((row) => row.id === queue.currentSongId) ? queue.currentSongId : null;
        return {
          playQueue: {
            current: current === null ? undefined : subsonicId('song', current),
            position: queue.positionMs,
            username: caller.user.username,
            changed: queue.changedAt,
            changedBy: queue.changedBy,
            entry: await marks.songs(caller.user, listing),
          },
        };
      },
    },
    getUser: {
      run: async ({ params, caller, request }) => {
        const username = requiredParam(params, 'username');
        const self = username.toLowerCase() === caller.user.username.toLowerCase();
        if (!self && !isAdmin(caller.user)) throw subsonicFail('notAuthorized', SubsonicMessages.otherUserNeedsAdmin);
        const user = self ? caller.user : await activity.findUserByName(username);
        if (user === undefined) throw subsonicFail('notFound', SubsonicMessages.noSuchUser(username));
        // The folders that user sees (getMusicFolders' ids, issue 25).
        const hidden = self ? caller.user.hiddenLibraries : await request.server.libraryAccess.hiddenFrom(user);
        const folders = (await musicFoldersOf(deps.browse, hidden)).map((folder) => folder.id);
        return { user: userNode(user, folders) };
      },
    },
  };
}

/** A user as Subsonic's `user`: what Tonearm lets them do, by its roles and the access policy; the folders they see. */
function userNode(user: UserRow, folders: number[]): SubsonicNode {
  const admin = isAdmin(user);
  return {
    // No `email`: OpenSubsonic's user has none (and an app has no use for it).
    username: user.username,
    scrobblingEnabled: true,
    adminRole: admin,
    settingsRole: true,
    downloadRole: mayDownload(subjectOf(user)),
    uploadRole: admin,
    playlistRole: true,
    coverArtRole: admin,
    commentRole: false,
    podcastRole: false,
    streamRole: true,
    jukeboxRole: false,
    shareRole: false,
    videoConversionRole: false,
    folder: folders,
  };
}
