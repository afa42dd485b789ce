import type { MediaSources } from '../../media/media-source.js';
import type { AlbumsRepository } from '../albums/albums.repository.js';
import type { AlbumsService } from '../albums/albums.service.js';
import type { ArtistsService } from '../artists/artists.service.js';
import type { DevicesService } from '../devices/devices.service.js';
import type { DownloadsService } from '../downloads/downloads.service.js';
import type { LibraryFoldersService } from '../libraries/library-folders.service.js';
import type { LikesService } from '../likes/likes.service.js';
import type { PlaylistsService } from '../playlists/playlists.service.js';
import type { PlaysService } from '../plays/plays.service.js';
import type { RadioService } from '../radio/radio.service.js';
import type { RatingsService } from '../ratings/ratings.service.js';
import type { SearchIndexRepository } from '../search-index/search-index.repository.js';
import type { SearchService } from '../search/search.service.js';
import type { ModuleDeps } from '../shared-deps.js';
import type { SongPagesService } from '../songs/song-pages.service.js';
import type { SongLyricsService } from '../songs/song-lyrics.service.js';
import type { SongsService } from '../songs/songs.service.js';
import type { SubsonicActivityRepository } from './subsonic-activity.repository.js';
import type { SubsonicBookmarksRepository } from './subsonic-bookmarks.repository.js';
import type { SubsonicBrowseRepository } from './subsonic-browse.repository.js';
import type { SubsonicCatalogueRepository } from './subsonic-catalogue.repository.js';
import type { SubsonicMediaRepository } from './subsonic-media.repository.js';
import type { ScanLibraries } from './methods/scanning.methods.js';
import type { StarMarks } from './subsonic-star-marks.js';
import type { SubsonicStarsRepository } from './subsonic-stars.repository.js';

/**
 * What the Subsonic methods work through: the same services the web API's routes call, so that a Subsonic app sees
 * exactly what the web app shows the same user (issue 7's one policy), plus Subsonic's own repositories. All of it is
 * built once, by the composition root (composition.ts); the method tables only read it.
 */
export interface SubsonicDeps extends Pick<ModuleDeps, 'config' | 'blobs' | 'offload' | 'meters' | 'media'> {
  songs: SongsService;
  songPages: SongPagesService;
  /** Songs' lyrics (getLyrics, getLyricsBySongId). */
  lyrics: SongLyricsService;
  albums: AlbumsService;
  artists: ArtistsService;
  likes: LikesService;
  /** Each user's stars (issue 28): setRating, and `userRating` on albums and artists. */
  ratings: RatingsService;
  playlists: PlaylistsService;
  /** Song radio (issue 28): getSimilarSongs(2), getSonicSimilarTracks, findSonicPath, getArtistInfo(2)'s similar artists. */
  radio: RadioService;
  plays: PlaysService;
  /** The user's devices and their one queue (issue 27): an app is a device; its queue and playback are the web's too. */
  devices: DevicesService;
  search: SearchService;
  /** The full-text index itself, for search2/search3's offsets (SearchService pages by cursor). */
  searchIndex: SearchIndexRepository;
  downloads: DownloadsService;
  /** Whether the media handler converts audio (ffmpeg answered at start-up): stream's formats and timeOffset. */
  transcoding: boolean;
  /** Where songs' and images' bytes are (null without a blob store). */
  sources: MediaSources | null;
  /** Album rows by search, for search2/search3's albums. */
  albumRows: AlbumsRepository;
  /** Subsonic's own SQL: the catalogue pages and lookups, and the album and artist stars. */
  catalogue: SubsonicCatalogueRepository;
  stars: SubsonicStarsRepository;
  /** Browsing by folders and tags, random songs, genres, and the music folders (libraries and the blob store). */
  browse: SubsonicBrowseRepository;
  /** What streaming needs besides the song (its stored bitrate). */
  subsonicMedia: SubsonicMediaRepository;
  /** Now playing, the saved play queue, users by name. */
  activity: SubsonicActivityRepository;
  /** Resume points in songs, per user (migration 025). */
  bookmarks: SubsonicBookmarksRepository;
  /** The caller's `starred` dates on every song, album and artist an answer lists. */
  marks: StarMarks;
  /** The libraries and their scans (getScanStatus, startScan). */
  libraries: ScanLibraries;
  /** The libraries' real folders (getIndexes, getMusicDirectory). */
  folders: LibraryFoldersService;
}
