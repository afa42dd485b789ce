import type { App } from '../../http/app-types.js';
import { createAlbumsRepository } from '../albums/albums.repository.js';
import { createArtistsRepository } from '../artists/artists.repository.js';
import { createPlaylistsRepository } from '../playlists/playlists.repository.js';
import { createSearchIndexRepository } from '../search-index/search-index.repository.js';
import type { ModuleDeps } from '../shared-deps.js';
import { createSongsService } from '../songs/songs.module.js';
import { searchRoutes } from './search.routes.js';
import { SearchService } from './search.service.js';

/**
 * One search box over songs, artists and playlists (`/api/search`), and the upkeep of the search's typo vocabulary
 * from start-up to shutdown.
 */
export function registerSearch(app: App, deps: ModuleDeps): void {
  const { db, dialect } = deps;
  const searchIndex = createSearchIndexRepository(db, dialect);
  const search = new SearchService(
    searchIndex,
    createSongsService(deps),
    createArtistsRepository(db),
    createPlaylistsRepository(db, dialect),
    createAlbumsRepository(db),
  );
  searchRoutes(app, search);
  app.addHook('onReady', (done) => {
    searchIndex.vocabularyUpkeep.start();
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    searchIndex.vocabularyUpkeep.stop();
    done();
  });
}
