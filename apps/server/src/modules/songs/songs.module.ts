import type { App } from '../../http/app-types.js';
import { registerUploadScope } from '../../http/multipart.js';
import { createArtistsRepository } from '../artists/artists.repository.js';
import { uploadAudioCheck } from '../media/media.module.js';
import { createSearchIndexRepository } from '../search-index/search-index.repository.js';
import type { ModuleDeps } from '../shared-deps.js';
import { catalogueIndexOf } from './catalogue-index.js';
import { createSongPagesRepository } from './song-pages.repository.js';
import { SongPagesService } from './song-pages.service.js';
import { createSongsStreamRepository } from './songs-stream.repository.js';
import { createSongsRepository } from './songs.repository.js';
import { songsReadRoutes, songsWriteRoutes } from './songs.routes.js';
import { SongsService } from './songs.service.js';
import { SongImportService } from './song-import.service.js';
import { SongsStream } from './songs.stream.js';

/**
 * The song catalogue over the app's database and blob store: its routes, likes and search (which list songs as a
 * viewer sees them), the demo seed and the import (modules/catalogue).
 */
export function createSongsService({
  db,
  dialect,
  releaseBlobs,
}: Pick<ModuleDeps, 'db' | 'dialect' | 'releaseBlobs'>): SongsService {
  return new SongsService(
    createSongsRepository(db),
    createArtistsRepository(db),
    createSearchIndexRepository(db, dialect),
    releaseBlobs,
    catalogueIndexOf(db),
  );
}

/** The import's writes (cli/import-folder.ts) over the app's database and blob store. */
export function createSongImportService({
  db,
  releaseBlobs,
}: Pick<ModuleDeps, 'db' | 'releaseBlobs'>): SongImportService {
  return new SongImportService(createSongsRepository(db), releaseBlobs, catalogueIndexOf(db));
}

/** The keyset song pages (catalogue, liked, playlist songs) over `songs`' database. */
export function createSongPagesService(
  { db, dialect }: Pick<ModuleDeps, 'db' | 'dialect'>,
  songs: SongsService,
): SongPagesService {
  return new SongPagesService(
    createSongPagesRepository(db),
    createSearchIndexRepository(db, dialect),
    catalogueIndexOf(db),
    songs,
  );
}

/**
 * Songs: reads need a session, writes an admin. Writes go through the upload pipeline, so without a blob store only
 * the reads are registered; the writes get their own scope, which parses multipart. `/media` is served by the lean
 * handler the app puts in front of Fastify (modules/media).
 */
export async function registerSongs(app: App, deps: ModuleDeps): Promise<void> {
  const songs = createSongsService(deps);
  songsReadRoutes(app, songs, {
    pages: createSongPagesService(deps, songs),
    stream: new SongsStream(createSongsStreamRepository(deps.db), deps.config.catalogueChunkRows),
  });
  const store = deps.blobs;
  if (store === null) return;
  const audioCheck = await uploadAudioCheck(deps.config);
  await registerUploadScope(app, (scope) => {
    songsWriteRoutes(scope, songs, store, { images: deps.images, audioCheck });
  });
}
