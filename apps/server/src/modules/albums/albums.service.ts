import {
  AlbumMessages,
  DbId,
  ServerMessages,
  type AlbumEditFields,
  type AlbumFields,
  type AlbumPageQuery,
  type SongAlbumFields,
} from '@tonearm/contract';
import { z } from 'zod';
import { cursorCodec, keysetPage, pageLimit } from '../../http/page-cursor.js';
import { isPlaceholderName } from '../../db/album-placeholders.js';
import { DuplicateError } from '../../db/duplicate-error.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import type { BlobReleaser } from '../../maintenance/blob-release.js';
import type { ArtistsRepository } from '../artists/artists.repository.js';
import { commitAll, discardAll, type StagedImage } from '../../media/staging.js';
import type { SongListing, SongsService, ViewedSong, Viewer } from '../songs/songs.service.js';
import type { AlbumListRow, AlbumsRepository, NewAlbum } from './albums.repository.js';

/** [name, id]: where the next page of albums starts. */
const albumCursors = cursorCodec('albums.byName', z.tuple([z.string().max(1000), DbId]));
/** [created_at, id]: where the next page of the newest albums starts. */
const recentCursors = cursorCodec('albums.recent', z.tuple([z.string().max(40), DbId]));
/** [stars (0: unrated), name, id]; the caller is in the cursor's scope (the order is theirs). */
const ratedCursors = cursorCodec('albums.rated', z.tuple([z.number().int().min(0).max(5), z.string().max(1000), DbId]));

export interface AlbumPageResult {
  rows: AlbumListRow[];
  nextCursor: string | null;
  total: number;
}

export interface AlbumWithSongs {
  album: AlbumListRow;
  listing: SongListing;
}

/**
 * Albums (issue 12): pages by name, and one album with its songs as the viewer sees them. Every song is on an album
 * (issue 25): a song taken off its album, or on an album that is deleted, goes on its artist's placeholder album
 * ("Unknown album"), which is deleted with its last song. The placeholder is listed by name (an artist's albums, the
 * whole list) but left out of the newest first and of searches by name, where it would be noise.
 */
export class AlbumsService {
  constructor(
    private readonly albums: AlbumsRepository,
    private readonly songs: Pick<SongsService, 'withMarks' | 'get' | 'exists'>,
    private readonly artists: Pick<ArtistsRepository, 'find'>,
    private readonly releaseBlobs: BlobReleaser,
  ) {}

  /** A page of the albums the viewer sees (none whose every song is in a library hidden from them). */
  async page(query: AlbumPageQuery, hidden: readonly number[] = [], userId = 0): Promise<AlbumPageResult> {
    const q = query.q === '' ? undefined : query.q;
    const placeholders = query.sort === 'recent' || q !== undefined ? false : undefined;
    const filter = { artistId: query.artistId, q, placeholders, hidden };
    const scope = hidden.length === 0 ? [filter.artistId, filter.q] : [filter.artistId, filter.q, hidden.join(',')];
    const limit = pageLimit(query.limit);
    if (query.sort === 'recent') {
      const recentAfter = recentCursors.decode(scope, query.cursor);
      const [rows, total] = await Promise.all([
        this.albums.recentPage(filter, recentAfter && { createdAt: recentAfter[0], id: recentAfter[1] }, limit + 1),
        this.albums.count(filter),
      ]);
      const page = keysetPage(rows, limit, (row) => recentCursors.encode(scope, [row.created_at, row.id]));
      return { rows: page.rows, nextCursor: page.nextCursor, total };
    }
    if (query.sort === 'rating') {
      const ratedScope = [...scope, 'rating', userId];
      const ratedAfter = ratedCursors.decode(ratedScope, query.cursor);
      const from = ratedAfter && { rating: ratedAfter[0], name: ratedAfter[1], id: ratedAfter[2] };
      const [rows, total] = await Promise.all([
        this.albums.ratedPage(filter, userId, from, limit + 1),
        this.albums.count(filter),
      ]);
      const page = keysetPage(rows, limit, (row) => ratedCursors.encode(ratedScope, [row.rating, row.name, row.id]));
      return { rows: page.rows, nextCursor: page.nextCursor, total };
    }
    const after = albumCursors.decode(scope, query.cursor);
    const [rows, total] = await Promise.all([
      this.albums.page(filter, after && { name: after[0], id: after[1] }, limit + 1),
      this.albums.count(filter),
    ]);
    const page = keysetPage(rows, limit, (row) => albumCursors.encode(scope, [row.name, row.id]));
    return { rows: page.rows, nextCursor: page.nextCursor, total };
  }

  async exists(id: number): Promise<boolean> {
    return (await this.albums.find(id)) !== undefined;
  }

  /** True when the album exists and the viewer sees it (not only in libraries hidden from them). */
  async sees(viewer: Viewer, id: number): Promise<boolean> {
    const hidden = viewer.hiddenLibraries;
    if ((await this.albums.find(id, hidden)) === undefined) return false;
    return hidden.length === 0 || this.albums.passes(id, { hidden });
  }

  async get(viewer: Viewer, id: number): Promise<AlbumWithSongs> {
    const hidden = viewer.hiddenLibraries;
    // Its songs counted as the viewer sees them (issue 25).
    const album = await this.albums.find(id, hidden);
    // An album of a library hidden from the viewer does not exist for them: the same 404.
    if (album === undefined || (hidden.length > 0 && !(await this.albums.passes(id, { hidden })))) {
      throw notFound(ServerMessages.albumNotFound);
    }
    return { album, listing: await this.songs.withMarks(viewer, await this.albums.tracks(id)) };
  }

  /** Admins: a new album (409 when its artist already has one of that name; 400 for the placeholder's name). */
  async create(fields: AlbumFields): Promise<AlbumListRow> {
    if (isPlaceholderName(fields.name)) throw badRequest(AlbumMessages.nameReserved, 'name');
    const album = { name: fields.name, artist_id: fields.artistId ?? null, year: fields.year ?? null };
    await this.assertArtist(album.artist_id);
    const id = await this.named(() => this.albums.insert(album));
    return this.found(id);
  }

  /**
   * Admins: changes the fields sent. Only a placeholder is named as one; a placeholder given another name becomes an
   * album like any other (its songs with it).
   */
  async update(id: number, fields: AlbumEditFields): Promise<AlbumListRow> {
    if (fields.name !== undefined && isPlaceholderName(fields.name)) {
      const current = await this.albums.find(id);
      if (current === undefined) throw notFound(ServerMessages.albumNotFound);
      if (current.is_placeholder !== 1) throw badRequest(AlbumMessages.nameReserved, 'name');
    }
    const changes: Partial<NewAlbum> = {};
    if (fields.name !== undefined) changes.name = fields.name;
    if (fields.artistId !== undefined) changes.artist_id = fields.artistId;
    if (fields.year !== undefined) changes.year = fields.year;
    if (changes.artist_id !== undefined) await this.assertArtist(changes.artist_id);
    if (!(await this.named(() => this.albums.update(id, changes)))) throw notFound(ServerMessages.albumNotFound);
    return this.found(id);
  }

  /**
   * Admins: a new cover, committed with the row (a failure leaves neither); the cover it replaces is released once no
   * row uses it.
   */
  async setCover(id: number, image: StagedImage): Promise<AlbumListRow> {
    let previous: string | null;
    try {
      const current = await this.albums.find(id);
      if (current === undefined) throw notFound(ServerMessages.albumNotFound);
      previous = current.image_key;
      await this.albums.inTransaction(async (albums) => {
        if (!(await albums.setCover(id, image.originalKey))) throw notFound(ServerMessages.albumNotFound);
        await commitAll([image]);
      });
    } catch (error) {
      await discardAll([image]);
      throw error;
    }
    if (previous !== image.originalKey) await this.releaseBlobs({ image: [previous] });
    return this.found(id);
  }

  /**
   * Admins: the album goes, its songs stay, each on its artist's placeholder album. A placeholder that still holds
   * songs stays (409): they would only come back to it.
   */
  async remove(id: number): Promise<void> {
    const album = await this.albums.find(id);
    if (album === undefined) throw notFound(ServerMessages.albumNotFound);
    if (album.is_placeholder === 1 && album.song_count > 0) throw conflict(AlbumMessages.placeholderHoldsSongs);
    if (!(await this.albums.remove(id))) throw notFound(ServerMessages.albumNotFound);
  }

  /**
   * Admins: moves a song onto an album (at a disc and track) or, with no album, onto its artist's placeholder; a
   * placeholder it leaves empty goes. Answers the song as the admin sees it.
   */
  async placeSong(viewer: Viewer, songId: number, fields: SongAlbumFields): Promise<ViewedSong> {
    if (!(await this.songs.exists(songId))) throw notFound(ServerMessages.notFound);
    const place =
      fields.albumId === null
        ? null
        : { albumId: fields.albumId, discNumber: fields.discNumber ?? null, trackNumber: fields.trackNumber ?? null };
    if (place !== null && (await this.albums.find(place.albumId)) === undefined) {
      throw badRequest(ServerMessages.albumNotFound, 'albumId');
    }
    const gone = await this.albums.placeSong(songId, place);
    // The song or the album went meanwhile: the same answers as above.
    if (gone === null) {
      throw (await this.songs.exists(songId))
        ? badRequest(ServerMessages.albumNotFound, 'albumId')
        : notFound(ServerMessages.notFound);
    }
    await this.releaseBlobs({ image: gone });
    return this.songs.get(viewer, songId);
  }

  private async assertArtist(artistId: number | null): Promise<void> {
    if (artistId !== null && (await this.artists.find(artistId)) === undefined) {
      throw badRequest(ServerMessages.artistNotFound, 'artistId');
    }
  }

  private async named<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (error instanceof DuplicateError) throw conflict(ServerMessages.albumExists, 'name');
      throw error;
    }
  }

  private async found(id: number): Promise<AlbumListRow> {
    const album = await this.albums.find(id);
    if (album === undefined) throw notFound(ServerMessages.albumNotFound);
    return album;
  }
}
