import type { App } from '../../http/app-types.js';
import { registerUploadScope } from '../../http/multipart.js';
import type { AudioEndCheck } from '../../media/audio-check.js';
import type { ModuleDeps } from '../shared-deps.js';
import type { SongPagesService } from './song-pages.service.js';
import { songLyricsReadRoutes, songLyricsWriteRoutes } from './song-lyrics.routes.js';
import type { SongLyricsService } from './song-lyrics.service.js';
import { songsReadRoutes, songsWriteRoutes } from './songs.routes.js';
import type { SongsService } from './songs.service.js';
import type { SongsStream } from './songs.stream.js';

/** What the songs' routes work through (built by the composition root). */
export interface SongsModuleDeps extends Pick<ModuleDeps, 'blobs' | 'images'> {
  songs: SongsService;
  songPages: SongPagesService;
  songsStream: SongsStream;
  /** Songs' lyrics (issue 27). */
  songLyrics: SongLyricsService;
  /** The check an audio upload passes besides its format (ffmpeg's decode when FFMPEG_PATH answers). */
  audioCheck: AudioEndCheck;
}

/**
 * Songs and their lyrics: reads need a session, writes an admin. Writes go through the upload pipeline, so without a blob store only
 * the reads are registered; the writes get their own scope, which parses multipart. `/media` is served by the lean
 * handler the app puts in front of Fastify (modules/media).
 */
export async function registerSongs(app: App, deps: SongsModuleDeps): Promise<void> {
  const { songs, blobs, images, audioCheck } = deps;
  songsReadRoutes(app, songs, { pages: deps.songPages, stream: deps.songsStream });
  songLyricsReadRoutes(app, deps.songLyrics);
  // Lyrics need no blob store: their writes have an upload scope of their own.
  await registerUploadScope(app, (scope) => {
    songLyricsWriteRoutes(scope, deps.songLyrics);
  });
  const store = blobs;
  if (store === null) return;
  await registerUploadScope(app, (scope) => {
    songsWriteRoutes(scope, songs, store, { images, audioCheck });
  });
}
