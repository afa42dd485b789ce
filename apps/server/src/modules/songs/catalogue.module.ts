import type { App, AppDeps } from '../../http/app-types.js';
import { registerMultipart } from '../../http/multipart.js';
import { createBlobReferencesRepository } from '../../maintenance/blob-references.repository.js';
import { createBlobReleaser } from '../../maintenance/blob-release.js';
import type { SharedRateLimit } from '../../plugins/rate-limit.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { createArtistsRepository } from '../artists/artists.repository.js';
import { artistsReadRoutes, artistsWriteRoutes } from '../artists/artists.routes.js';
import { ArtistsService } from '../artists/artists.service.js';
import { createUploadQuota } from '../limits/upload-quota.module.js';
import { createLikesRepository } from '../likes/likes.repository.js';
import { likesRoutes } from '../likes/likes.routes.js';
import { LikesService } from '../likes/likes.service.js';
import { createPlaylistsRepository } from '../playlists/playlists.repository.js';
import { createSearchRepository } from '../search/search.repository.js';
import { searchRoutes } from '../search/search.routes.js';
import { SearchService } from '../search/search.service.js';
import { createUsersPhotoRepository } from '../users/users-photo.repository.js';
import { usersPhotoRoutes } from '../users/users-photo.routes.js';
import { UsersPhotoService } from '../users/users-photo.service.js';
import { createSongsRepository } from './songs.repository.js';
import { songsReadRoutes, songsWriteRoutes } from './songs.routes.js';
import { SongsService } from './songs.service.js';

/** The catalogue's services over one database and blob store: used by the HTTP routes, the demo seed and the import. */
export interface Catalogue {
  songs: SongsService;
  artists: ArtistsService;
  likes: LikesService;
  search: SearchService;
  photos: UsersPhotoService;
}

/** With `config`, profile photos are charged to the daily image allowance; without (demo seed, import) they are not. */
export function createCatalogue(
  { db, dialect, config }: Pick<AppDeps, 'db' | 'dialect'> & Partial<Pick<AppDeps, 'config'>>,
  store: BlobStore | null,
): Catalogue {
  const references = createBlobReferencesRepository(db);
  // Without a store (tests of other modules) there are no blobs to release.
  const releaseBlobs = store === null ? () => Promise.resolve() : createBlobReleaser(store, references);
  const artistsRepository = createArtistsRepository(db);
  const searchRepository = createSearchRepository(db, dialect);
  const songs = new SongsService(createSongsRepository(db), artistsRepository, searchRepository, releaseBlobs);
  return {
    songs,
    artists: new ArtistsService(artistsRepository, releaseBlobs),
    likes: new LikesService(createLikesRepository(db), songs),
    search: new SearchService(searchRepository, songs, artistsRepository, createPlaylistsRepository(db, dialect)),
    photos: new UsersPhotoService(
      createUsersPhotoRepository(db),
      releaseBlobs,
      config === undefined ? null : createUploadQuota({ db, dialect, config }),
    ),
  };
}

/**
 * Artists, songs, likes, search and profile photos. Reads need a session; catalogue writes need an admin; uploads need
 * the blob store, so without one only the reads are registered. `/media` is served by the lean handler the app puts
 * in front of Fastify (modules/media/media-handler.ts).
 */
export async function registerCatalogue(app: App, deps: AppDeps, uploads: SharedRateLimit): Promise<void> {
  const catalogue = createCatalogue(deps, deps.blobs);
  artistsReadRoutes(app, catalogue.artists);
  songsReadRoutes(app, catalogue.songs);
  likesRoutes(app, catalogue.likes);
  searchRoutes(app, catalogue.search);
  const store = deps.blobs;
  if (store === null) return;
  await app.register(async (scope) => {
    await registerMultipart(scope);
    // Catalogue images go through the image gate and pixel ceiling, but not the users' daily allowance.
    artistsWriteRoutes(scope, catalogue.artists, store, deps.images);
    songsWriteRoutes(scope, catalogue.songs, store, deps.images);
    usersPhotoRoutes(scope, catalogue.photos, store, deps.images, uploads);
  });
}
