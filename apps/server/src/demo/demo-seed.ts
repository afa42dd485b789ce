import { endpoints, fileField } from '@tonearm/contract';
import { buildDemoCatalogue } from './demo-catalogue.js';
import { HttpError } from '../http/errors.js';
import type { BlobStore } from '../storage/blob-store.js';
import { stageAudio, stageImage } from '../media/staging.js';
import type { Catalogue } from '../modules/catalogue.js';

/** Errors name the fields an admin upload would (songs take the media defaults: the song form's). */
const ARTIST_IMAGE_FIELD = fileField(endpoints.artists.create, 'image');

export interface DemoSeedResult {
  artists: number;
  songs: number;
  ms: number;
}

/**
 * Seeds the generated demo catalogue (DESIGN §6) through the same pipeline as an admin upload: staged, checked,
 * hashed, thumbnailed, committed with its row. Rows another instance seeded at the same moment are skipped (409).
 */
export async function seedDemoCatalogue(
  catalogue: Pick<Catalogue, 'songs' | 'artists'>,
  store: BlobStore,
): Promise<DemoSeedResult> {
  const started = performance.now();
  const demo = await buildDemoCatalogue();
  const artistIds = new Map<string, number>();
  let artists = 0;
  let songs = 0;
  for (const artist of demo.artists) {
    const created = await skipConflict(async () =>
      catalogue.artists.create(artist.name, await stageImage(store, artist.image, ARTIST_IMAGE_FIELD)),
    );
    if (created !== null) artists += 1;
    artistIds.set(artist.name, created?.id ?? (await catalogue.artists.findOrCreate(artist.name)));
  }
  for (const song of demo.songs) {
    const added = await skipConflict(async () =>
      catalogue.songs.add({
        name: song.name,
        genre: song.genre,
        artistId: artistIds.get(song.artistName) ?? null,
        audio: await stageAudio(store, song.audio),
        image: await stageImage(store, song.cover),
      }),
    );
    if (added !== null) songs += 1;
  }
  return { artists, songs, ms: Math.round(performance.now() - started) };
}

async function skipConflict<T>(work: () => Promise<T>): Promise<T | null> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof HttpError && error.status === 409) return null;
    throw error;
  }
}
