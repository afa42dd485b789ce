import type { App } from '../../http/app-types.js';
import { createArtistsRepository } from '../artists/artists.repository.js';
import type { ModuleDeps } from '../shared-deps.js';
import { createSongsService } from '../songs/songs.module.js';
import { createAlbumsRepository } from './albums.repository.js';
import { albumsReadRoutes, albumsWriteRoutes } from './albums.routes.js';
import { AlbumsService } from './albums.service.js';

/** Albums (issue 12): pages of albums and one album's songs as the viewer sees them; admins edit them. */
export function registerAlbums(app: App, deps: ModuleDeps): void {
  const albums = new AlbumsService(
    createAlbumsRepository(deps.db),
    createSongsService(deps),
    createArtistsRepository(deps.db),
  );
  albumsReadRoutes(app, albums);
  albumsWriteRoutes(app, albums);
}
