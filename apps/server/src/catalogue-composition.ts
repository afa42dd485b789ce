import type { Kysely } from 'kysely';
import type { Dialect } from './db/database.js';
import type { DB } from './db/schema.js';
import { createBlobReferencesRepository } from './maintenance/blob-references.repository.js';
import { createBlobReleaser, type BlobReleaser } from './maintenance/blob-release.js';
import { createArtistsRepository } from './modules/artists/artists.repository.js';
import { ArtistsService } from './modules/artists/artists.service.js';
import type { Catalogue } from './modules/catalogue.js';
import { createSearchIndexRepository } from './modules/search-index/search-index.repository.js';
import { CatalogueIndex } from './modules/songs/catalogue-index.js';
import { SongImportService } from './modules/songs/song-import.service.js';
import { toSongsJson } from './modules/songs/songs.presenter.js';
import { createSongPagesRepository } from './modules/songs/song-pages.repository.js';
import { createSongsRepository } from './modules/songs/songs.repository.js';
import { SongsService, type CatalogueChanges } from './modules/songs/songs.service.js';
import type { BlobStore } from './storage/blob-store.js';

/*
 * The catalogue's part of the composition root (composition.ts builds the rest of the app around it): the songs and
 * artists services, the import's writes, the search index and the in-memory catalogue index, each built once. The
 * import CLI (cli/import.ts) builds just this part, over its own database connection.
 */

/** A background job of the app: started when the app is ready, stopped (and waited for) when it closes. */
export interface Job {
  name: string;
  start(): void | Promise<void>;
  stop(): void | Promise<void>;
}

/** Told the name of every part as it is built (tests count them: each must be built once). */
export type OnBuild = (name: string) => void;

/** Builds a named part, once: a second part of the same name is a mistake of the root. */
export type Make = <T>(name: string, build: () => T) => T;

export function maker(onBuild: OnBuild | undefined): Make {
  const made = new Set<string>();
  return (name, build) => {
    if (made.has(name)) throw new Error(`composition: ${name} is built twice`);
    made.add(name);
    onBuild?.(name);
    return build();
  };
}

/** The database and blob store everything is built over. */
export interface CompositionBase {
  db: Kysely<DB>;
  dialect: Dialect;
  /** Null only in tests that do not touch media. */
  blobs: BlobStore | null;
}

/** The catalogue's parts: what the import CLI and the demo seed write through, and the app's songs and artists. */
export interface CatalogueParts extends Catalogue {
  blobReferences: ReturnType<typeof createBlobReferencesRepository>;
  releaseBlobs: BlobReleaser;
  songsRepository: ReturnType<typeof createSongsRepository>;
  artistsRepository: ReturnType<typeof createArtistsRepository>;
  searchIndex: ReturnType<typeof createSearchIndexRepository>;
  songPagesRepository: ReturnType<typeof createSongPagesRepository>;
  catalogueIndex: CatalogueIndex;
  /** The search vocabulary's upkeep (SQLite): the app starts and stops it; a CLI stops it before it closes the db. */
  vocabularyUpkeep: Job;
}

/**
 * The catalogue's repositories and services over one database and blob store (with the rules of an admin's upload).
 * `onSongSaved` is told of every song the songs and import services write (the app's audio analysis wakes on it).
 */
export function composeCatalogue(
  { db, dialect, blobs }: CompositionBase,
  make: Make = maker(undefined),
  onSongSaved: () => void = () => undefined,
): CatalogueParts {
  const blobReferences = make('blobReferencesRepository', () => createBlobReferencesRepository(db));
  const releaseBlobs = make('blobReleaser', (): BlobReleaser =>
    blobs === null ? () => Promise.resolve() : createBlobReleaser(blobs, blobReferences),
  );
  const songsRepository = make('songsRepository', () => createSongsRepository(db));
  const artistsRepository = make('artistsRepository', () => createArtistsRepository(db));
  const searchIndex = make('searchIndexRepository', () => createSearchIndexRepository(db, dialect));
  const songPagesRepository = make('songPagesRepository', () => createSongPagesRepository(db));
  const catalogueIndex = make('catalogueIndex', () => new CatalogueIndex(songPagesRepository));
  const changes: CatalogueChanges = {
    songSaved(entry) {
      catalogueIndex.songSaved(entry);
      onSongSaved();
    },
    songRemoved: (id) => {
      catalogueIndex.songRemoved(id);
    },
  };
  const songs = make(
    'songsService',
    () => new SongsService(songsRepository, artistsRepository, searchIndex, releaseBlobs, changes),
  );
  return {
    blobReferences,
    releaseBlobs,
    songsRepository,
    artistsRepository,
    searchIndex,
    songPagesRepository,
    catalogueIndex,
    songs,
    artists: make(
      'artistsService',
      () =>
        new ArtistsService(artistsRepository, releaseBlobs, async (viewer, ids) =>
          toSongsJson(await songs.listPresentByIds(viewer, ids)),
        ),
    ),
    imports: make('songImportService', () => new SongImportService(songsRepository, releaseBlobs, changes)),
    vocabularyUpkeep: {
      name: 'search vocabulary upkeep',
      start: () => searchIndex.vocabularyUpkeep.start(),
      stop: () => searchIndex.vocabularyUpkeep.stop(),
    },
  };
}
