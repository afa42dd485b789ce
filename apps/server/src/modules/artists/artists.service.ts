import { DbId, ServerMessages, type ArtistCreditPage, type CursorQuery, type Song } from '@tonearm/contract';
import { z } from 'zod';
import { DuplicateError, isDuplicate } from '../../db/duplicate-error.js';
import type { RoleValue } from '../../db/schema.js';
import { conflict, notFound } from '../../http/errors.js';
import { cursorCodec, keysetPage, pageLimit } from '../../http/page-cursor.js';
import type { BlobReleaser } from '../../maintenance/blob-release.js';
import { commitAll, discardAll, type StagedImage } from '../../media/staging.js';
import type { ArtistsRepository, ArtistWithSongs, HiddenLibraries } from './artists.repository.js';

/** Who is asking for songs: likes and playlist ids in a Song answer are theirs. */
export interface CreditsViewer {
  id: number;
  role: RoleValue;
  /** Libraries whose songs this viewer may not see. */
  hiddenLibraries: HiddenLibraries;
}

/**
 * The Song JSON of these ids as the viewer sees them, in the ids' order, songs gone or missing meanwhile left out. The
 * songs module answers it (the composition root hands it over): this module may not import that one.
 */
export type SongsForViewer = (viewer: CreditsViewer, ids: readonly number[]) => Promise<Song[]>;

/** [song id]: where the next page of an artist's credits starts. */
const creditCursors = cursorCodec('artists.credits', z.tuple([DbId]));

export interface ArtistChanges {
  /** Absent: keep the name. */
  name?: string;
  /** Null: keep the image. */
  image: StagedImage | null;
}

/** Another writer took the name between the check and the write: the same 409 the check gives. */
function nameTakenOnRace(error: unknown): never {
  if (isDuplicate(error, 'name')) throw conflict(ServerMessages.artistExists, 'name');
  throw error;
}

/**
 * Artists and their photos. A photo is committed together with the row; a replaced or orphaned photo is released once
 * no row references it. Deleting an artist keeps its songs, which then play as "Unknown artist".
 */
export class ArtistsService {
  constructor(
    private readonly artists: ArtistsRepository,
    private readonly releaseBlobs: BlobReleaser,
    private readonly songsFor: SongsForViewer,
  ) {}

  /** Every artist the viewer sees (none only in libraries hidden from them). */
  /** The artists by name; the first `limit` of them when given. */
  list(hidden: HiddenLibraries = [], limit?: number): Promise<ArtistWithSongs[]> {
    return this.artists.list(hidden, limit);
  }

  /** The artist, unless it does not exist or is only in libraries hidden from the viewer (404 both ways). */
  async get(id: number, hidden: HiddenLibraries = []): Promise<ArtistWithSongs> {
    const artist = await this.artists.findWithSongs(id, hidden);
    if (artist === undefined) throw notFound(ServerMessages.artistNotFound);
    return artist;
  }

  /**
   * Issue 25: a keyset page of the songs that credit the artist in a contributor role (not theirs as an artist), each
   * with the artist's roles on it; 404 for an unknown artist.
   */
  async credits(viewer: CreditsViewer, id: number, query: CursorQuery): Promise<ArtistCreditPage> {
    const hidden = viewer.hiddenLibraries;
    await this.get(id, hidden);
    const scope = hidden.length === 0 ? [id] : [id, hidden.join(',')];
    const after = creditCursors.decode(scope, query.cursor);
    const limit = pageLimit(query.limit);
    const [credited, total] = await Promise.all([
      this.artists.creditsPage(id, after?.[0], limit + 1, hidden),
      this.artists.creditsCount(id, hidden),
    ]);
    const { rows, nextCursor } = keysetPage(credited, limit, (credit) => creditCursors.encode(scope, [credit.songId]));
    const songs = new Map(
      (
        await this.songsFor(
          viewer,
          rows.map((credit) => credit.songId),
        )
      ).map((s) => [s.id, s]),
    );
    const items = rows.flatMap(({ songId, roles }) => {
      const song = songs.get(songId);
      return song === undefined ? [] : [{ song, roles }];
    });
    return { items, nextCursor, total };
  }

  async exists(id: number): Promise<boolean> {
    return (await this.artists.find(id)) !== undefined;
  }

  /** The artist of that name (case-insensitive), or a new one without a photo: for imports. */
  async findOrCreate(name: string): Promise<number> {
    const existing = await this.artists.findByName(name);
    if (existing !== undefined) return existing.id;
    try {
      return (await this.artists.insert(name, null)).id;
    } catch (error) {
      // Another writer created it between the lookup and the insert.
      const raced = error instanceof DuplicateError ? await this.artists.findByName(name) : undefined;
      if (raced === undefined) throw error;
      return raced.id;
    }
  }

  async create(name: string, image: StagedImage | null): Promise<ArtistWithSongs> {
    try {
      if ((await this.artists.findByName(name)) !== undefined) throw conflict(ServerMessages.artistExists, 'name');
      const id = await this.artists.inTransaction(async (artists) => {
        const row = await artists.insert(name, image?.originalKey ?? null);
        await commitAll([image]);
        return row.id;
      });
      return await this.get(id);
    } catch (error) {
      await discardAll([image]);
      return nameTakenOnRace(error);
    }
  }

  async update(id: number, changes: ArtistChanges): Promise<ArtistWithSongs> {
    const { image } = changes;
    let previousImage: string | null;
    try {
      const current = await this.artists.find(id);
      if (current === undefined) throw notFound(ServerMessages.artistNotFound);
      previousImage = current.image_key;
      if (changes.name !== undefined) {
        const holder = await this.artists.findByName(changes.name);
        if (holder !== undefined && holder.id !== id) throw conflict(ServerMessages.artistExists, 'name');
      }
      await this.artists.inTransaction(async (artists) => {
        await artists.update(id, {
          ...(changes.name === undefined ? {} : { name: changes.name }),
          ...(image === null ? {} : { image_key: image.originalKey }),
        });
        await commitAll([image]);
      });
    } catch (error) {
      await discardAll([image]);
      return nameTakenOnRace(error);
    }
    if (image !== null && image.originalKey !== previousImage) await this.releaseBlobs({ image: [previousImage] });
    return this.get(id);
  }

  async remove(id: number): Promise<void> {
    const current = await this.artists.find(id);
    if (current === undefined) throw notFound(ServerMessages.artistNotFound);
    await this.artists.delete(id);
    await this.releaseBlobs({ image: [current.image_key] });
  }
}
