import type { ArtistsService } from './artists/artists.service.js';
import type { SongImportService } from './songs/song-import.service.js';
import type { SongsService } from './songs/songs.service.js';

/**
 * The catalogue's writers outside HTTP: the demo seed (demo/demo-seed.ts) and the import CLI (cli/). Built by the
 * composition root (composition.ts `composeCatalogue`), the same services the app's routes use.
 */
export interface Catalogue {
  songs: SongsService;
  artists: ArtistsService;
  /** The import's writes: batches with albums, and the songs of changed or removed files. */
  imports: SongImportService;
}
