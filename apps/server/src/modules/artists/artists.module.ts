import type { App } from '../../http/app-types.js';
import { registerUploadScope } from '../../http/multipart.js';
import type { ModuleDeps } from '../shared-deps.js';
import { createArtistsRepository } from './artists.repository.js';
import { artistsReadRoutes, artistsWriteRoutes } from './artists.routes.js';
import { ArtistsService } from './artists.service.js';

/** The artists over the app's database and blob store: its routes, the demo seed and the import (modules/catalogue). */
export function createArtistsService({ db, releaseBlobs }: Pick<ModuleDeps, 'db' | 'releaseBlobs'>): ArtistsService {
  return new ArtistsService(createArtistsRepository(db), releaseBlobs);
}

/**
 * Artists: reads need a session, writes an admin. Writes upload a picture, so without a blob store only the reads are
 * registered; the writes get their own scope, which parses multipart. Catalogue images go through the image gate and
 * pixel ceiling, but not the users' daily allowance.
 */
export async function registerArtists(app: App, deps: ModuleDeps): Promise<void> {
  const artists = createArtistsService(deps);
  artistsReadRoutes(app, artists);
  const store = deps.blobs;
  if (store === null) return;
  await registerUploadScope(app, (scope) => {
    artistsWriteRoutes(scope, artists, store, deps.images);
  });
}
