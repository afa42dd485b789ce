import {
  DbId,
  isAdmin,
  mayEditPlaylist,
  mayManageUser,
  maySeePlaylist,
  ErrorCodes,
  LimitMessages,
  PAGE_LIMIT_MAX,
  PlaylistMessages,
  ServerMessages,
  type PlaylistFormFields,
  type PlaylistPageQuery,
  type PlaylistAccessFacts,
  type PlaylistUpdateFields,
  type SmartPlaylistCreate,
  type SmartPlaylistUpdate,
  visiblePlaylists,
} from '@tonearm/contract';
import { z } from 'zod';
import type { PlaylistRow, UserRow } from '../../db/schema.js';
import type { BlobReleaser } from '../../maintenance/blob-release.js';
import { HttpError, badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import { cursorCodec, keysetPage, pageLimit } from '../../http/page-cursor.js';
import type { UploadQuota } from '../limits/upload-quota.service.js';
import { m3u8Filename, writeM3u8 } from './playlist-m3u.js';
import { isPermutationOf } from './playlist-order.rules.js';
import type { Page, PlaylistPatch, PlaylistScope, PlaylistsRepository, SongsWrite } from './playlists.repository.js';
import type { SmartRefresher } from './smart-playlists.service.js';

/** Who is asking. */
/** Who acts; with `hiddenLibraries`, songs of those libraries cannot be added (404 as if they did not exist). */
export type Actor = Pick<UserRow, 'id' | 'role'> & { hiddenLibraries?: readonly number[] };

/** A playlist with its song ids in order: what the routes present. */
export interface PlaylistView {
  row: PlaylistRow;
  songIds: number[];
}

/** A staged cover image: its key, its size as uploaded, and the commit that makes it visible (inside the DB transaction). */
export interface CoverUpload {
  key: string;
  bytes: number;
  commit: () => Promise<void>;
}

const facts = (playlist: PlaylistRow): PlaylistAccessFacts => ({
  ownerId: playlist.owner_id,
  isPublic: playlist.is_public === 1,
});

/** What one user may create here (PLAYLISTS_PER_USER) and the daily image allowance covers are charged to. */
export interface PlaylistLimits {
  playlistsPerUser: number;
  /** Null: covers are not counted (tests of other modules). */
  quota: UploadQuota | null;
}

const UNLIMITED: PlaylistLimits = { playlistsPerUser: Number.POSITIVE_INFINITY, quota: null };

const playlistNotFound = () => notFound(ServerMessages.notFound);

function unwrapSongs<T>(result: SongsWrite<T>): T {
  if ('missingSongs' in result) {
    throw badRequest(`${PlaylistMessages.unknownSongs} ${result.missingSongs.join(', ')}`, 'songs');
  }
  return result.ok;
}

const noCover = () => Promise.resolve();

/** [id] of a page's last playlist. */
const playlistCursors = cursorCodec('playlists', z.tuple([DbId]));

/** A page of playlists. */
export interface PlaylistPageView {
  views: PlaylistView[];
  nextCursor: string | null;
  total: number;
}

/**
 * Playlists (DESIGN §4). Reading: public playlists to every signed-in user, private ones to their owner and admins
 * only; to anyone else a private playlist does not exist (404). Writing: the owner or an admin; another user who can
 * see a public playlist gets 403.
 */
export class PlaylistsService {
  constructor(
    private readonly playlists: PlaylistsRepository,
    /** Deletes a cover no row uses any more, after the change that dropped it is committed. */
    private readonly releaseBlobs: BlobReleaser,
    private readonly limits: PlaylistLimits = UNLIMITED,
    private readonly now: () => Date = () => new Date(),
    /** Chooses smart playlists' songs anew before they are read (issue 28); none in tests of other modules. */
    private readonly smart: SmartRefresher | null = null,
  ) {}

  /** GET /api/playlists: own and public ones; admins see all. */
  list(actor: Actor, page: Partial<Page>): Promise<PlaylistView[]> {
    return this.listScope(visiblePlaylists(actor), page);
  }

  /** GET /api/playlists/admin: every playlist, admins only. */
  listAll(page: Partial<Page>): Promise<PlaylistView[]> {
    return this.listScope({ kind: 'all' }, page);
  }

  /** GET /api/playlists/user/{id}: all of a user's playlists, to that user or an admin (404 to anyone else). */
  async listOfUser(actor: Actor, userId: number, page: Partial<Page>): Promise<PlaylistView[]> {
    if (!mayManageUser(actor, userId)) throw notFound(ServerMessages.notFound);
    if (actor.id !== userId && !(await this.playlists.userExists(userId))) throw notFound(ServerMessages.notFound);
    return this.listScope({ kind: 'owner', ownerId: userId }, page);
  }

  /**
   * GET /api/playlists/page, newest first: scope `own` (the default) the caller's playlists, `all` every playlist
   * (administrators only, 403 otherwise); `q` keeps those whose name contains it.
   */
  async page(actor: Actor, query: PlaylistPageQuery): Promise<PlaylistPageView> {
    const all = query.scope === 'all';
    if (all && !isAdmin(actor)) throw forbidden(ServerMessages.forbidden);
    const scope: PlaylistScope = all ? { kind: 'all' } : { kind: 'owner', ownerId: actor.id };
    const q = query.q === '' ? undefined : query.q;
    const cursorScope = [all ? 'all' : actor.id, q];
    const after = playlistCursors.decode(cursorScope, query.cursor);
    const limit = pageLimit(query.limit);
    const [rows, total] = await Promise.all([
      this.playlists.page(scope, q, after?.[0], limit + 1),
      this.playlists.count(scope, q),
    ]);
    const page = keysetPage(rows, limit, (row) => playlistCursors.encode(cursorScope, [row.id]));
    return { views: await this.views(page.rows), nextCursor: page.nextCursor, total };
  }

  async get(actor: Actor, id: number): Promise<PlaylistView> {
    return this.view(await this.readable(actor, id));
  }

  /** GET /api/playlists/{id}/m3u8: whoever may see the playlist may export it (see playlist-m3u.ts). */
  async exportM3u8(actor: Actor, id: number): Promise<{ filename: string; text: string }> {
    const playlist = await this.readable(actor, id);
    await this.refreshSmart([playlist]);
    const songs = await this.playlists.exportEntries(playlist.id, actor.hiddenLibraries);
    return { filename: m3u8Filename(playlist.name), text: writeM3u8(songs) };
  }

  /**
   * Refuses early (before the form is read) with 409 when the caller already owns PLAYLISTS_PER_USER playlists. The
   * final word is create's, which counts again under the owner's lock.
   */
  async assertCanCreate(actor: Actor): Promise<void> {
    if ((await this.playlists.countOwned(actor.id)) >= this.limits.playlistsPerUser) throw this.tooManyPlaylists();
  }

  /** Refuses early (429, before a cover's bytes are read) when the caller's daily image allowance is spent. */
  async assertCanUploadCover(actor: Actor): Promise<void> {
    await this.limits.quota?.assertRoom(actor.id);
  }

  async create(actor: Actor, fields: PlaylistFormFields, cover: CoverUpload | null): Promise<PlaylistView> {
    const write = () =>
      this.playlists.create(
        {
          owner_id: actor.id,
          name: fields.name,
          type: fields.type,
          is_public: fields.isPublic ? 1 : 0,
          image_key: cover?.key ?? null,
          created_at: this.now().toISOString(),
        },
        fields.songs,
        cover?.commit ?? noCover,
        this.limits.playlistsPerUser,
        actor.hiddenLibraries,
      );
    const row = await this.chargeCover(actor, cover, async () => {
      const written = await write();
      if ('ownedLimit' in written) throw this.tooManyPlaylists();
      return unwrapSongs(written);
    });
    return { row, songIds: [...fields.songs] };
  }

  /** Refuses early (before an upload is read) when the caller may not change this playlist. */
  async assertWritable(actor: Actor, id: number): Promise<void> {
    await this.writable(actor, id);
  }

  async update(
    actor: Actor,
    id: number,
    fields: PlaylistUpdateFields,
    cover: CoverUpload | null,
  ): Promise<PlaylistView> {
    const previous = fields.songs === undefined ? await this.writable(actor, id) : await this.songsWritable(actor, id);
    const previousCover = previous.image_key;
    const patch: PlaylistPatch = {};
    if (fields.name !== undefined) patch.name = fields.name;
    if (fields.type !== undefined) patch.type = fields.type;
    if (fields.isPublic !== undefined) patch.is_public = fields.isPublic ? 1 : 0;
    if (cover !== null) patch.image_key = cover.key;
    else if (fields.removeImage === true) patch.image_key = null;
    const row = await this.chargeCover(actor, cover, async () =>
      unwrapSongs(
        await this.playlists.update(
          id,
          patch,
          fields.songs,
          this.now().toISOString(),
          cover?.commit ?? noCover,
          actor.hiddenLibraries,
        ),
      ),
    );
    if (row === undefined) throw playlistNotFound();
    if (row.image_key !== previousCover) await this.releaseBlobs({ image: [previousCover] });
    return this.view(row);
  }

  /** POST /api/playlists/smart: a playlist whose songs its rules choose (no songs by hand, no cover at creation). */
  async createSmart(actor: Actor, fields: SmartPlaylistCreate): Promise<PlaylistView> {
    const written = await this.playlists.create(
      {
        owner_id: actor.id,
        name: fields.name,
        type: fields.type,
        is_public: fields.isPublic ? 1 : 0,
        image_key: null,
        created_at: this.now().toISOString(),
        smart_rules: JSON.stringify(fields.definition),
      },
      [],
      noCover,
      this.limits.playlistsPerUser,
    );
    if ('ownedLimit' in written) throw this.tooManyPlaylists();
    const row = unwrapSongs(written);
    await this.smart?.refresh([row.id], true);
    return this.view(row);
  }

  /** PUT /api/playlists/{id}/smart: 409 for a playlist that is not smart; new rules choose the songs at once. */
  async updateSmart(actor: Actor, id: number, fields: SmartPlaylistUpdate): Promise<PlaylistView> {
    const playlist = await this.writable(actor, id);
    if (playlist.smart_rules === null) throw conflict(PlaylistMessages.notSmart);
    const patch: PlaylistPatch = {};
    if (fields.name !== undefined) patch.name = fields.name;
    if (fields.type !== undefined) patch.type = fields.type;
    if (fields.isPublic !== undefined) patch.is_public = fields.isPublic ? 1 : 0;
    if (fields.definition !== undefined) patch.smart_rules = JSON.stringify(fields.definition);
    const row = unwrapSongs(await this.playlists.update(id, patch, undefined, this.now().toISOString(), noCover));
    if (row === undefined) throw playlistNotFound();
    await this.smart?.refresh([id], fields.definition !== undefined);
    return this.view(row);
  }

  async remove(actor: Actor, id: number): Promise<void> {
    const playlist = await this.writable(actor, id);
    if (!(await this.playlists.delete(id))) throw playlistNotFound();
    await this.releaseBlobs({ image: [playlist.image_key] });
  }

  async addSong(actor: Actor, playlistId: number, songId: number): Promise<void> {
    await this.songsWritable(actor, playlistId);
    const result = await this.playlists.addSong(playlistId, songId, this.now().toISOString(), actor.hiddenLibraries);
    if (result === 'no-playlist') throw playlistNotFound();
    if (result === 'no-song') throw notFound(PlaylistMessages.songNotFound);
    if (result === 'duplicate') throw conflict(ServerMessages.songAlreadyInPlaylist);
  }

  async removeSong(actor: Actor, playlistId: number, songId: number): Promise<void> {
    await this.songsWritable(actor, playlistId);
    if (!(await this.playlists.removeSong(playlistId, songId))) throw notFound(PlaylistMessages.songNotInPlaylist);
  }

  /** The new order must be a permutation of the current songs (checked inside the transaction). */
  async reorder(actor: Actor, playlistId: number, songIds: readonly number[]): Promise<PlaylistView> {
    await this.songsWritable(actor, playlistId);
    const done = await this.playlists.reorder(playlistId, (current) => {
      if (!isPermutationOf(current, songIds)) throw badRequest(PlaylistMessages.orderNotPermutation, 'songIds');
      return songIds;
    });
    if (!done) throw playlistNotFound();
    return this.get(actor, playlistId);
  }

  /**
   * Runs the write that stores `cover`, charged to the caller's daily image allowance (429 when it does not fit); a
   * write that throws (unknown songs, too many playlists, a failed commit) is not charged.
   */
  private chargeCover<T>(actor: Actor, cover: CoverUpload | null, write: () => Promise<T>): Promise<T> {
    const quota = this.limits.quota;
    return cover === null || quota === null ? write() : quota.charge(actor.id, cover.bytes, write);
  }

  private tooManyPlaylists(): HttpError {
    return new HttpError(409, ErrorCodes.limitReached, LimitMessages.playlistsPerUser(this.limits.playlistsPerUser));
  }

  private async listScope(scope: PlaylistScope, page: Partial<Page>): Promise<PlaylistView[]> {
    const rows = await this.playlists.list(scope, { limit: page.limit ?? PAGE_LIMIT_MAX, offset: page.offset ?? 0 });
    return this.views(rows);
  }

  /** The rows with their song ids in order (one query for all of them); smart ones chosen anew when due. */
  private async views(rows: PlaylistRow[]): Promise<PlaylistView[]> {
    await this.refreshSmart(rows);
    const songIds = await this.playlists.songIds(rows.map((row) => row.id));
    return rows.map((row) => ({ row, songIds: songIds.get(row.id) ?? [] }));
  }

  private async view(row: PlaylistRow): Promise<PlaylistView> {
    await this.refreshSmart([row]);
    const songIds = await this.playlists.songIds([row.id]);
    return { row, songIds: songIds.get(row.id) ?? [] };
  }

  private async refreshSmart(rows: readonly PlaylistRow[]): Promise<void> {
    const smart = rows.filter((row) => row.smart_rules !== null).map((row) => row.id);
    if (smart.length > 0) await this.smart?.refresh(smart);
  }

  /** Who may add, remove or reorder songs: as writable, and never of a smart playlist (its rules choose them). */
  private async songsWritable(actor: Actor, id: number): Promise<PlaylistRow> {
    const playlist = await this.writable(actor, id);
    if (playlist.smart_rules !== null) throw forbidden(PlaylistMessages.smartChoosesSongs);
    return playlist;
  }

  /** A private playlist of someone else does not exist for the caller: same 404 as a missing one. */
  private async readable(actor: Actor, id: number): Promise<PlaylistRow> {
    const playlist = await this.playlists.find(id);
    if (playlist === undefined) throw playlistNotFound();
    if (!maySeePlaylist(actor, facts(playlist))) throw playlistNotFound();
    return playlist;
  }

  /**
   * Who may change a playlist: its owner or an administrator (403 otherwise), and nobody when it follows a playlist
   * file of a library (403 with why: the file is what changes it).
   */
  private async writable(actor: Actor, id: number): Promise<PlaylistRow> {
    const playlist = await this.readable(actor, id);
    if (!mayEditPlaylist(actor, facts(playlist))) throw forbidden(ServerMessages.forbidden);
    if (playlist.library_id !== null) throw forbidden(PlaylistMessages.readOnlyFromFile);
    return playlist;
  }
}
