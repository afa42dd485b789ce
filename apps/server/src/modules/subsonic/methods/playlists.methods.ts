import { isAdmin, PAGE_LIMIT_MAX, PlaylistFormFields, SubsonicMessages } from '@tonearm/contract';
import type { SessionViewer } from '../../../http/session.js';
import { HttpError } from '../../../http/errors.js';
import type { PlaylistView } from '../../playlists/playlists.service.js';
import type { PlaylistSummary } from '../subsonic-catalogue.repository.js';
import type { SubsonicDeps } from '../subsonic-deps.js';
import { idOfKind, subsonicId } from '../subsonic-ids.js';
import { notFoundError, requiredParam, subsonicFail, type MethodTable } from '../subsonic-method.js';
import type { SubsonicParams } from '../subsonic-params.js';
import type { SubsonicNode } from '../subsonic.response.js';

const seconds = (ms: number): number => Math.round(ms / 1000);

/** A playlist id: `pl-7` as this server answers it, or the plain number 7 (the web app's id). */
function playlistIdParam(params: SubsonicParams, name: string): number {
  const id = idOfKind(requiredParam(params, name), 'playlist');
  if (id === null) throw notFoundError('Playlist');
  return id;
}

/** The song ids of a repeatable parameter, once each (a Tonearm playlist holds a song once); 70 for a bad id. */
function songIdsParam(params: SubsonicParams, name: string): number[] {
  const ids = params.getAll(name).map((raw) => {
    const id = idOfKind(raw, 'song');
    if (id === null) throw notFoundError('Song');
    return id;
  });
  return [...new Set(ids)];
}

function booleanParam(params: SubsonicParams, name: string): boolean | undefined {
  const raw = params.get(name)?.toLowerCase();
  if (raw === undefined) return undefined;
  if (raw !== 'true' && raw !== 'false') throw subsonicFail('generic', SubsonicMessages.badBoolean(name));
  return raw === 'true';
}

/** A playlist name as the web's form takes it (trimmed, 1 to NAME_MAX characters); error 0 otherwise. */
function playlistName(raw: string): string {
  const parsed = PlaylistFormFields.shape.name.safeParse(raw);
  if (!parsed.success) throw subsonicFail('generic', parsed.error.issues[0]?.message ?? SubsonicMessages.badRequest);
  return parsed.data;
}

/** The playlists service's 400 for songs deleted since they were checked: the same 70 as a song that never was. */
async function songsMustExist<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof HttpError && error.status === 400 && error.field === 'songs') throw notFoundError('Song');
    throw error;
  }
}

/**
 * Playlists (getPlaylists, getPlaylist, createPlaylist, updatePlaylist, deletePlaylist) through the web's
 * PlaylistsService, so the same rules hold: another user's private playlist does not exist for the caller (70), only
 * its owner or an administrator changes a playlist (50 otherwise), nobody changes one that follows a library's playlist
 * file (50, with the web's message; answered `readonly`), and the per-user playlist limit applies (error 0
 * with the web's message). Tonearm playlists have no comment: `comment` is accepted and ignored. A playlist holds a
 * song once (as in the web app): a song added again stays where it is.
 */
export function playlistsMethods(deps: SubsonicDeps): MethodTable {
  const { catalogue, marks } = deps;

  /** Playlists as the caller sees them, as Subsonic `Playlist`s: owner names and song totals in one query each. */
  async function playlistNodes(user: SessionViewer, views: readonly PlaylistView[]): Promise<SubsonicNode[]> {
    const [summaries, owners] = await Promise.all([
      // The totals of the songs the caller sees (those of libraries hidden from them are not listed either).
      catalogue.playlistSummaries(
        views.map((view) => view.row.id),
        user.hiddenLibraries,
      ),
      catalogue.usernames(views.map((view) => view.row.owner_id)),
    ]);
    const none: PlaylistSummary = { songCount: 0, durationMs: 0, lastAddedAt: null };
    return views.map(({ row }) => {
      const summary = summaries.get(row.id) ?? none;
      const changed =
        summary.lastAddedAt !== null && summary.lastAddedAt > row.created_at ? summary.lastAddedAt : row.created_at;
      return {
        id: subsonicId('playlist', row.id),
        name: row.name,
        owner: owners.get(row.owner_id),
        public: row.is_public === 1,
        songCount: summary.songCount,
        duration: seconds(summary.durationMs),
        created: row.created_at,
        changed,
        coverArt: row.image_key !== null ? subsonicId('playlist', row.id) : undefined,
        // OpenSubsonic: a playlist that follows a library's playlist file, or a smart one (its rules choose its songs),
        // cannot be changed here.
        readonly: row.library_id !== null || row.smart_rules !== null ? true : undefined,
      };
    });
  }

  /** getPlaylist's answer: the playlist and its songs in order (each with the caller's star). */
  async function playlistWithSongs(user: SessionViewer, id: number): Promise<SubsonicNode> {
    const view = await deps.playlists.get(user, id);
    const [[node], entry] = await Promise.all([
      playlistNodes(user, [view]),
      deps.songs.listInPlaylist(user, id).then((listing) => marks.songs(user, listing)),
    ]);
    return { playlist: { ...node, entry } };
  }

  /** The playlist's songs the caller is shown (getPlaylist's entries), in order. */
  async function shownSongIds(user: SessionViewer, id: number): Promise<number[]> {
    return (await deps.songs.listInPlaylist(user, id)).rows.map((row) => row.id);
  }

  /** 70 unless every song exists and is not in a library hidden from the caller. */
  async function assertSongsExist(user: SessionViewer, ids: readonly number[]): Promise<void> {
    const found = await catalogue.existing('song', ids, user.hiddenLibraries);
    if (ids.some((id) => !found.has(id))) throw notFoundError('Song');
  }

  return {
    getPlaylists: {
      run: async ({ params, caller: { user } }) => {
        const page = { limit: PAGE_LIMIT_MAX, offset: 0 };
        const username = params.get('username');
        let views: PlaylistView[];
        if (username === undefined) {
          // What the web's Playlists page lists: the caller's own and the public ones (an administrator: all).
          views = await deps.playlists.list(user, page);
        } else {
          const self = username.toLowerCase() === user.username.toLowerCase();
          if (!self && !isAdmin(user)) throw subsonicFail('notAuthorized', SubsonicMessages.playlistOfOtherUser);
          const ownerId = self ? user.id : await catalogue.userIdByName(username);
          if (ownerId === undefined) throw notFoundError('User');
          views = await deps.playlists.listOfUser(user, ownerId, page);
        }
        return { playlists: { playlist: await playlistNodes(user, views) } };
      },
    },

    getPlaylist: {
      run: ({ params, caller: { user } }) => playlistWithSongs(user, playlistIdParam(params, 'id')),
    },

    createPlaylist: {
      run: async ({ params, caller: { user } }) => {
        const songs = songIdsParam(params, 'songId');
        const rawName = params.get('name');
        const name = rawName === undefined ? undefined : playlistName(rawName);
        if (params.has('playlistId')) {
          // An existing playlist: its songs become these (and its name, when one is given).
          const id = playlistIdParam(params, 'playlistId');
          await deps.playlists.assertWritable(user, id);
          await assertSongsExist(user, songs);
          // The songs of libraries hidden from the caller, which they were not shown, stay (after the given ones).
          const shown = new Set(await shownSongIds(user, id));
          const unseen = (await deps.playlists.get(user, id)).songIds.filter(
            (song) => !shown.has(song) && !songs.includes(song),
          );
          await songsMustExist(() =>
            deps.playlists.update(
              user,
              id,
              { songs: [...songs, ...unseen], ...(name === undefined ? {} : { name }) },
              null,
            ),
          );
          return playlistWithSongs(user, id);
        }
        if (name === undefined) throw subsonicFail('missingParameter', SubsonicMessages.playlistNameOrId);
        await assertSongsExist(user, songs);
        const view = await songsMustExist(() =>
          deps.playlists.create(user, { name, type: '', isPublic: false, songs }, null),
        );
        return playlistWithSongs(user, view.row.id);
      },
    },

    updatePlaylist: {
      run: async ({ params, caller: { user } }) => {
        const id = playlistIdParam(params, 'playlistId');
        const rawName = params.get('name');
        const name = rawName === undefined ? undefined : playlistName(rawName);
        const isPublic = booleanParam(params, 'public');
        const adds = songIdsParam(params, 'songIdToAdd');
        const removes = params.getAll('songIndexToRemove').map((raw) => {
          if (!/^\d{1,9}$/.test(raw)) throw subsonicFail('generic', SubsonicMessages.badNumber('songIndexToRemove'));
          return Number(raw);
        });
        await deps.playlists.assertWritable(user, id);
        await assertSongsExist(user, adds);
        let songs: number[] | undefined;
        if (adds.length > 0 || removes.length > 0) {
          const current = (await deps.playlists.get(user, id)).songIds;
          // The indexes are those of getPlaylist's entries (the songs the caller is shown); the songs of libraries
          // hidden from them stay where they are.
          const shown = await shownSongIds(user, id);
          const missing = removes.find((index) => index >= shown.length);
          if (missing !== undefined) throw subsonicFail('notFound', SubsonicMessages.songIndex(String(missing)));
          const removed = new Set(removes.map((index) => shown[index]));
          songs = current.filter((song) => !removed.has(song));
          for (const song of adds) if (!songs.includes(song)) songs.push(song);
        }
        const fields = {
          ...(name === undefined ? {} : { name }),
          ...(isPublic === undefined ? {} : { isPublic }),
          ...(songs === undefined ? {} : { songs }),
        };
        if (Object.keys(fields).length > 0) await songsMustExist(() => deps.playlists.update(user, id, fields, null));
        return {};
      },
    },

    deletePlaylist: {
      run: async ({ params, caller: { user } }) => {
        await deps.playlists.remove(user, playlistIdParam(params, 'id'));
        return {};
      },
    },
  };
}
