import { endpoints, fileField } from '@tonearm/contract';
import { buildDemoCatalogue } from './demo-catalogue.js';
import { HttpError } from '../http/errors.js';
import type { BlobStore } from '../storage/blob-store.js';
import { discardAll, stageAudio, stageImage } from '../media/staging.js';
import type { Catalogue } from '../modules/catalogue.js';

/** Errors name the fields an admin upload would (songs take the media defaults: the song form's). */
const ARTIST_IMAGE_FIELD = fileField(endpoints.artists.create, 'image');

export interface DemoSeedResult {
  artists: number;
  songs: number;
  ms: number;
}

/**
 * Seeds the generated demo catalogue (DESIGN §6): the artists through the admin's artist form, the songs through the
 * import's writes (SongImportService), as a folder of tagged files would arrive: each song staged, checked, hashed and
 * thumbnailed like any upload, and written with its album (found or created under its artist, with its year) at its
 * track number; the album takes the artwork the tracks carry as its cover. Rows another instance seeded at the same
 * moment are skipped (409).
 */
export async function seedDemoCatalogue(
  catalogue: Pick<Catalogue, 'imports' | 'artists'>,
  store: BlobStore,
): Promise<DemoSeedResult> {
  const started = performance.now();
  const demo = await buildDemoCatalogue();
  let artists = 0;
  let songs = 0;
  for (const artist of demo.artists) {
    const created = await skipConflict(async () =>
      catalogue.artists.create(artist.name, await stageImage(store, artist.image, ARTIST_IMAGE_FIELD)),
    );
    if (created !== null) artists += 1;
  }
  for (const song of demo.songs) {
    const added = await skipConflict(async () => {
      const audio = await stageAudio(store, song.audio);
      const image = await stageImage(store, song.cover).catch(async (error: unknown) => {
        await discardAll([audio]);
        throw error;
      });
      await catalogue.imports.addBatch([
        {
          name: song.name,
          genre: song.genre,
          artistName: song.artistName,
          audio,
          image,
          details: {
            year: song.year,
            bitrateKbps: null,
            sampleRateHz: null,
            format: null,
            genreTag: null,
            replayGain: { trackDb: null, trackPeak: null, albumDb: null, albumPeak: null },
            album: {
              name: song.album,
              artist_name: song.artistName,
              year: song.year,
              disc_number: null,
              track_number: song.track,
            },
            coverIsArtwork: true,
          },
        },
      ]);
      return true;
    });
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
