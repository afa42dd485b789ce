import { releaserFor } from '../maintenance/blob-release.js';
import type { BlobStore } from '../storage/blob-store.js';
import { createArtistsService } from './artists/artists.module.js';
import type { ArtistsService } from './artists/artists.service.js';
import type { AppDeps } from './shared-deps.js';
import { createSongImportService, createSongsService } from './songs/songs.module.js';
import type { SongImportService } from './songs/song-import.service.js';
import type { SongsService } from './songs/songs.service.js';

/** The catalogue's writers outside HTTP: the demo seed (demo/demo-seed.ts) and the import CLI (cli/). */
export interface Catalogue {
  songs: SongsService;
  artists: ArtistsService;
  /** The import's writes: batches with albums, and the songs of changed or removed files. */
  imports: SongImportService;
}

/** Songs and artists over one database and blob store, with the same rules as an admin's upload. */
export function createCatalogue({ db, dialect }: Pick<AppDeps, 'db' | 'dialect'>, store: BlobStore | null): Catalogue {
  const releaseBlobs = releaserFor(db, store);
  return {
    songs: createSongsService({ db, dialect, releaseBlobs }),
    artists: createArtistsService({ db, releaseBlobs }),
    imports: createSongImportService({ db, releaseBlobs }),
  };
}
