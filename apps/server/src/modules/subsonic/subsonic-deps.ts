import { createAlbumsRepository } from '../albums/albums.repository.js';
import { AlbumsService } from '../albums/albums.service.js';
import { createArtistsService } from '../artists/artists.module.js';
import type { ArtistsService } from '../artists/artists.service.js';
import { createArtistsRepository } from '../artists/artists.repository.js';
import { createDownloadsRepository } from '../downloads/downloads.repository.js';
import { DownloadsService } from '../downloads/downloads.service.js';
import { createLikesRepository } from '../likes/likes.repository.js';
import { LikesService } from '../likes/likes.service.js';
import { createPlaylistsRepository } from '../playlists/playlists.repository.js';
import { PlaylistsService } from '../playlists/playlists.service.js';
import { createPlaysRepository } from '../plays/plays.repository.js';
import { PlaysService } from '../plays/plays.service.js';
import { createSearchIndexRepository, type SearchIndexRepository } from '../search-index/search-index.repository.js';
import { SearchService } from '../search/search.service.js';
import type { ModuleDeps } from '../shared-deps.js';
import type { SongPagesService } from '../songs/song-pages.service.js';
import { createSongPagesService, createSongsService } from '../songs/songs.module.js';
import type { SongsService } from '../songs/songs.service.js';
import {
  createSubsonicCatalogueRepository,
  type SubsonicCatalogueRepository,
} from './subsonic-catalogue.repository.js';
import { StarMarks } from './subsonic-star-marks.js';
import { createSubsonicStarsRepository, type SubsonicStarsRepository } from './subsonic-stars.repository.js';

/**
 * What the Subsonic methods work through: the same services the web API's routes call, so that a Subsonic app sees
 * exactly what the web app shows the same user (issue 7's one policy), plus the app's pieces for what only Subsonic
 * needs (its own repositories).
 */
export interface SubsonicDeps extends ModuleDeps {
  songs: SongsService;
  songPages: SongPagesService;
  albums: AlbumsService;
  artists: ArtistsService;
  likes: LikesService;
  playlists: PlaylistsService;
  plays: PlaysService;
  search: SearchService;
  /** The full-text index itself, for search2/search3's offsets (SearchService pages by cursor). */
  searchIndex: SearchIndexRepository;
  downloads: DownloadsService;
  /** Subsonic's own SQL: the catalogue pages and lookups, and the album and artist stars. */
  catalogue: SubsonicCatalogueRepository;
  stars: SubsonicStarsRepository;
  /** The caller's `starred` dates on every song, album and artist an answer lists. */
  marks: StarMarks;
}

export function createSubsonicDeps(deps: ModuleDeps): SubsonicDeps {
  const { db, dialect } = deps;
  const songs = createSongsService(deps);
  const searchIndex = createSearchIndexRepository(db, dialect);
  const catalogue = createSubsonicCatalogueRepository(db);
  const stars = createSubsonicStarsRepository(db);
  return {
    ...deps,
    songs,
    songPages: createSongPagesService(deps, songs),
    albums: new AlbumsService(createAlbumsRepository(db), songs, createArtistsRepository(db), deps.releaseBlobs),
    artists: createArtistsService(deps),
    likes: new LikesService(createLikesRepository(db), songs),
    playlists: new PlaylistsService(createPlaylistsRepository(db, dialect), deps.releaseBlobs, {
      playlistsPerUser: deps.config.limits.playlistsPerUser,
      quota: deps.uploadQuota,
    }),
    plays: new PlaysService(createPlaysRepository(db)),
    search: new SearchService(
      searchIndex,
      songs,
      createArtistsRepository(db),
      createPlaylistsRepository(db, dialect),
      createAlbumsRepository(db),
    ),
    searchIndex,
    downloads: new DownloadsService(createDownloadsRepository(db), deps.blobs, deps.offload),
    catalogue,
    stars,
    marks: new StarMarks(stars, catalogue),
  };
}
