import { ServerMessages } from '@tonearm/contract';
import { DuplicateError, isDuplicate } from '../../db/duplicate-error.js';
import { conflict, notFound } from '../../http/errors.js';
import type { BlobReleaser } from '../../maintenance/blob-release.js';
import { commitAll, discardAll, type StagedImage } from '../../media/staging.js';
import type { ArtistsRepository, ArtistWithSongs, HiddenLibraries } from './artists.repository.js';

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
  ) {}

  /** Every artist the viewer sees (none only in libraries hidden from them). */
  list(hidden: HiddenLibraries = []): Promise<ArtistWithSongs[]> {
    return this.artists.list(hidden);
  }

  /** The artist, unless it does not exist or is only in libraries hidden from the viewer (404 both ways). */
  async get(id: number, hidden: HiddenLibraries = []): Promise<ArtistWithSongs> {
    const artist = await this.artists.findWithSongs(id, hidden);
    if (artist === undefined) throw notFound(ServerMessages.artistNotFound);
    return artist;
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
