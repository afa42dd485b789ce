import type { FastifyBaseLogger } from 'fastify';
import {
  composeCatalogue,
  maker,
  type CatalogueParts,
  type CompositionBase,
  type Job,
  type OnBuild,
} from './catalogue-composition.js';
import type { Config } from './config.js';
import { countersFor } from './counters/counters-for.js';
import type { CounterStore } from './counters/counter-store.js';
import type { PoolUse } from './db/database.js';
import { createNotifications } from './db/notifications.js';
import { createMetrics } from './metrics/metrics.module.js';
import { createAlbumsRepository } from './modules/albums/albums.repository.js';
import { createAnalysisRepository } from './modules/analysis/analysis.repository.js';
import { AnalysisService } from './modules/analysis/analysis.service.js';
import { AlbumsService } from './modules/albums/albums.service.js';
import { createLibrariesRepository } from './modules/libraries/libraries.repository.js';
import { createSongsRepository } from './modules/songs/songs.repository.js';
import { LibrariesService } from './modules/libraries/libraries.service.js';
import { createLibraryMedia } from './modules/libraries/library-media.js';
import { createLibraryAccessRepository, LibraryAccess } from './modules/libraries/library-access.js';
import { createLibraryFoldersRepository } from './modules/libraries/library-folders.repository.js';
import { LibraryFoldersService } from './modules/libraries/library-folders.service.js';
import { createAppKeysRepository } from './modules/auth/app-keys.repository.js';
import { AuthService } from './modules/auth/auth.service.js';
import { LOGIN_FAILURE_WINDOW_MS, LoginAttempts } from './modules/auth/login-attempts.js';
import { createDevicesRepository } from './modules/devices/devices.repository.js';
import { DevicesService } from './modules/devices/devices.service.js';
import { frameOf, LiveHub } from './modules/devices/live-hub.js';
import { createDownloadsRepository } from './modules/downloads/downloads.repository.js';
import { DownloadsService } from './modules/downloads/downloads.service.js';
import type { ModulesDeps } from './modules/index.js';
import type { ArtistRatingsOf, ModuleDeps, RatingOf } from './modules/shared-deps.js';
import { createLikesRepository } from './modules/likes/likes.repository.js';
import { LikesService } from './modules/likes/likes.service.js';
import { lastFm, listenBrainz } from './modules/scrobbling/providers.js';
import { createScrobblingRepository } from './modules/scrobbling/scrobbling.repository.js';
import { ScrobblingService } from './modules/scrobbling/scrobbling.service.js';
import { createRatingsRepository } from './modules/ratings/ratings.repository.js';
import { RatingsService } from './modules/ratings/ratings.service.js';
import { createUploadQuotaRepository } from './modules/limits/upload-quota.repository.js';
import { UploadQuota } from './modules/limits/upload-quota.service.js';
import { createImageWork, type ImageWork } from './media/image-work.js';
import { NO_MEDIA_METERS } from './media/media-meters.js';
import { appMediaHandler, offloadGate, startTranscoding, uploadAudioCheck } from './modules/media/media.module.js';
import { nginxOffloadFor } from './media/nginx-offload.js';
import { storedMediaSources } from './media/media-source.js';
import { buildPlans } from './modules/payments/payment-plans.js';
import { createPaymentProvider } from './modules/payments/payment-providers.js';
import { createPaymentsRepository } from './modules/payments/payments.repository.js';
import { PaymentsService } from './modules/payments/payments.service.js';
import { createPlaylistsRepository } from './modules/playlists/playlists.repository.js';
import { PlaylistsService } from './modules/playlists/playlists.service.js';
import { createSmartPlaylistsRepository } from './modules/playlists/smart-playlists.repository.js';
import { createListensExportRepository } from './modules/listens/listens-export.repository.js';
import { ListensExportService } from './modules/listens/listens-export.service.js';
import { createServerStatsRepository } from './modules/stats/server-stats.repository.js';
import { createStatsRepository } from './modules/stats/stats.repository.js';
import { StatsService } from './modules/stats/stats.service.js';
import { SmartPlaylistsService } from './modules/playlists/smart-playlists.service.js';
import { createPlaysRepository } from './modules/plays/plays.repository.js';
import { PlaysService } from './modules/plays/plays.service.js';
import { createRadioRepository } from './modules/radio/radio.repository.js';
import { createRadioService } from './modules/radio/radio.service.js';
import { engineOnThread } from './modules/radio/radio-thread.js';
import { SearchService } from './modules/search/search.service.js';
import { SongPagesService } from './modules/songs/song-pages.service.js';
import { createSongLyricsRepository } from './modules/songs/song-lyrics.repository.js';
import { SongLyricsService } from './modules/songs/song-lyrics.service.js';
import { createSongsStreamRepository } from './modules/songs/songs-stream.repository.js';
import { SongsStream } from './modules/songs/songs.stream.js';
import { createApiKeysRepository } from './modules/subsonic/api-keys.repository.js';
import { ApiKeysService } from './modules/subsonic/api-keys.service.js';
import { createAppPasswordsRepository } from './modules/subsonic/app-passwords.repository.js';
import { AppPasswordsService } from './modules/subsonic/app-passwords.service.js';
import { SecretBox } from './modules/subsonic/secret-box.js';
import { createSubsonicActivityRepository } from './modules/subsonic/subsonic-activity.repository.js';
import { credentialLimits, SubsonicAuth } from './modules/subsonic/subsonic-auth.js';
import { createSubsonicBookmarksRepository } from './modules/subsonic/subsonic-bookmarks.repository.js';
import { createSubsonicBrowseRepository } from './modules/subsonic/subsonic-browse.repository.js';
import { createSubsonicCatalogueRepository } from './modules/subsonic/subsonic-catalogue.repository.js';
import { createSubsonicMediaRepository } from './modules/subsonic/subsonic-media.repository.js';
import { StarMarks } from './modules/subsonic/subsonic-star-marks.js';
import { createSubsonicStarsRepository } from './modules/subsonic/subsonic-stars.repository.js';
import { subsonicMethods } from './modules/subsonic/subsonic.module.js';
import { openSubsonicExtensions } from './modules/subsonic/methods/system.methods.js';
import type { SubsonicDeps } from './modules/subsonic/subsonic-deps.js';
import { SubsonicService } from './modules/subsonic/subsonic.service.js';
import { createUsersPhotoRepository } from './modules/users/users-photo.repository.js';
import { UsersPhotoService } from './modules/users/users-photo.service.js';
import { createUsersRepository } from './modules/users/users.repository.js';
import { UsersService } from './modules/users/users.service.js';
import { SessionStore, sessionCacheMsFor } from './sessions/session-store.js';
import { createSessionsRepository } from './sessions/sessions.repository.js';
import { SetupCode } from './setup-code.js';
import type { AppMetrics } from './metrics/app-metrics.js';

/*
 * The composition root: the one place where the server's repositories, services and background jobs are built, each
 * exactly once, dependencies first. Modules only register routes over what they are handed (modules/index.ts). The
 * catalogue's part is catalogue-composition.ts, which the import CLI builds on its own; the demo seed writes through
 * the app's.
 */

export type { Job, OnBuild } from './catalogue-composition.js';

export interface ComposeOptions extends CompositionBase {
  config: Config;
  /** The app's logger (Fastify's, so that every line carries its bindings). */
  log: FastifyBaseLogger;
  /** The image gate and pixel ceiling; by default made from config.limits (tests pass their own to hold the gate). */
  images?: ImageWork;
  /** The server's one-time setup code (main.ts prints it); a fresh random one by default. */
  setupCode?: SetupCode;
  /** The database pool's use, for /metrics (createDatabase's poolUse); none by default. */
  poolUse?: () => PoolUse | null;
  /** Where rate limits and sign-in failures are counted; by default chosen by the dialect (countersFor). */
  counters?: CounterStore;
  /** Loads the catalogue index in the background once the app is ready (main.ts), instead of on the first page. */
  warmCatalogue?: boolean;
  onBuild?: OnBuild;
}

/** Everything the app is made of. */
export interface Composition {
  /** What the modules and the app's plugins are handed. */
  services: ModulesDeps &
    Omit<ModuleDeps, 'uploads'> & {
      metrics: AppMetrics | null;
      /** Whether ?format= transcodes (ffmpeg answered). */
      transcoding: boolean;
      /** Who sees which library (every catalogue read asks it through the request, http/session.ts). */
      libraryAccess: LibraryAccess;
    };
  /** The import's and the demo seed's writers (the same services as the routes'). */
  catalogue: CatalogueParts;
  /** Accounts, for start-up's "no administrator yet". */
  usersRepository: ReturnType<typeof createUsersRepository>;
  jobs: readonly Job[];
  /** Starts every job (Fastify onReady). */
  start(): Promise<void>;
  /** From now on the app is closing: /media stops taking new work (Fastify preClose). */
  beginClosing(): void;
  /** Stops every job and waits for it, the last one first (Fastify onClose). */
  stop(): Promise<void>;
}

/** The whole app's parts, in dependency order. */
export async function composeApp(options: ComposeOptions): Promise<Composition> {
  const { config, db, dialect, blobs, log } = options;
  const make = maker(options.onBuild);
  let closing = false;

  // The app's pieces.
  const metrics = await make('metrics', () => createMetrics(config, options.poolUse ?? (() => null)));
  const meters = metrics?.meters ?? NO_MEDIA_METERS;
  const counters = make('counters', () => options.counters ?? countersFor(db, dialect));
  const sessions = make(
    'sessions',
    () =>
      new SessionStore(createSessionsRepository(db), {
        ttlSeconds: config.sessionTtlSeconds,
        idleSeconds: config.sessionIdleSeconds,
        maxPerUser: config.limits.sessionsPerUser,
        cacheMs: sessionCacheMsFor(dialect),
      }),
  );
  const setupCode = make('setupCode', () => options.setupCode ?? new SetupCode());
  const images = make('imageWork', () => options.images ?? createImageWork(config.limits));
  const offload = make('nginxOffload', () => nginxOffloadFor(config, blobs));
  // Libraries: music folders read in place, and where their files and covers' originals are.
  const librariesRepository = make('librariesRepository', () =>
    createLibrariesRepository(db, (trx) => createSongsRepository(trx, null)),
  );
  // Who sees which library: every catalogue read leaves out the libraries hidden from its user.
  const libraryAccessRepository = make('libraryAccessRepository', () => createLibraryAccessRepository(db));
  const libraryAccess = make('libraryAccess', () => new LibraryAccess(libraryAccessRepository));
  // Where a song's or an image's bytes are: a blob of the store, or a library's file (media/media-source.ts).
  const sources =
    blobs === null
      ? null
      : make('mediaSources', () => storedMediaSources(blobs, createLibraryMedia(librariesRepository, blobs)));
  const audioCheck = await make('audioCheck', () => uploadAudioCheck(config));

  // Media: the transcoder and the /media handler (with its open files), and MEDIA_OFFLOAD_GATE's listener.
  const transcoder =
    blobs === null ? null : await make('transcoder', () => startTranscoding(config, log, meters.transcodes));
  const media =
    sources === null
      ? null
      : make('mediaHandler', () =>
          appMediaHandler({
            sources,
            sessions,
            config,
            transcoder,
            offload,
            streams: meters.streams,
            log,
            isClosing: () => closing,
            libraryAccess,
          }),
        );
  const gateAddress = config.mediaOffload?.gate ?? null;
  const gate =
    media !== null && offload !== null && gateAddress !== null
      ? make('offloadGate', () => offloadGate(gateAddress, media, log, meters.gate))
      : null;

  // The audio analysis (issue 28): every song's feature vector, in the background; it needs ffmpeg, as transcoding does.
  const analysis = make(
    'analysisService',
    () =>
      new AnalysisService({
        repository: createAnalysisRepository(db, dialect),
        sources,
        ffmpegPath: transcoder === null ? null : config.transcode.ffmpegPath,
        config: config.analysis,
        log,
      }),
  );

  // The catalogue, shared with the import CLI. A song uploaded or imported here wakes the analysis.
  const catalogue = composeCatalogue({ db, dialect, blobs }, make, () => {
    analysis.wake();
  });
  const { releaseBlobs, songs, artists, searchIndex, catalogueIndex, artistsRepository } = catalogue;

  // Repositories of the other features.
  const usersRepository = make('usersRepository', () => createUsersRepository(db, dialect));
  const albumsRepository = make('albumsRepository', () => createAlbumsRepository(db));
  const playlistsRepository = make('playlistsRepository', () => createPlaylistsRepository(db, dialect));

  // Services, dependencies first.
  const uploadQuota = make(
    'uploadQuota',
    () => new UploadQuota(createUploadQuotaRepository(db, dialect), config.limits),
  );
  const libraries = make(
    'librariesService',
    () =>
      new LibrariesService({
        repository: librariesRepository,
        access: libraryAccess,
        accessRepository: libraryAccessRepository,
        db,
        dialect,
        releaseBlobs,
        config: config.libraries,
        log,
        playlists: playlistsRepository,
        songsChanged: () => {
          analysis.wake();
        },
      }),
  );
  // A change of administrators hands the libraries' playlists from files to one (the first one signs up: made at once).
  const users = make(
    'usersService',
    () =>
      new UsersService(usersRepository, sessions, { registration: config.registration, setupCode }, releaseBlobs, () =>
        libraries.administratorsChanged(),
      ),
  );
  const userPhotos = make(
    'usersPhotoService',
    () => new UsersPhotoService(createUsersPhotoRepository(db), releaseBlobs, uploadQuota),
  );
  const auth = make(
    'authService',
    () =>
      new AuthService(
        usersRepository,
        users,
        sessions,
        new LoginAttempts(counters, 'login', config.loginFailuresPerAccount, LOGIN_FAILURE_WINDOW_MS),
        createAppKeysRepository(db),
      ),
  );
  const songPages = make(
    'songPagesService',
    () => new SongPagesService(catalogue.songPagesRepository, searchIndex, catalogueIndex, songs),
  );
  const songsStream = make(
    'songsStream',
    () => new SongsStream(createSongsStreamRepository(db, artistsRepository), config.catalogueChunkRows),
  );
  // Lyrics: removing a library song's lyrics has its file read again at the next scan (its own lyrics come back).
  const songLyrics = make(
    'songLyricsService',
    () =>
      new SongLyricsService(createSongLyricsRepository(db), songs, (songId) =>
        librariesRepository.rereadLyrics(songId),
      ),
  );
  const albums = make(
    'albumsService',
    () => new AlbumsService(albumsRepository, songs, artistsRepository, releaseBlobs),
  );
  const likes = make('likesService', () => new LikesService(createLikesRepository(db), songs));
  const ratingsRepository = make('ratingsRepository', () => createRatingsRepository(db));
  const ratings = make('ratingsService', () => new RatingsService(ratingsRepository, songs, albums, artists));
  const ratingOf: RatingOf = async (kind, userId, id) =>
    (await ratingsRepository.ratingsOf(kind, userId, [id])).get(id) ?? null;
  const artistRatingsOf: ArtistRatingsOf = (userId) => ratingsRepository.ratingsOf('artist', userId);
  // Smart playlists (issue 28): their songs chosen anew by their rules when read, within the owner's libraries.
  const smartPlaylists = make(
    'smartPlaylistsService',
    () =>
      new SmartPlaylistsService(
        createSmartPlaylistsRepository(db),
        (id, songIds, now) => playlistsRepository.replaceSmartSongs(id, songIds, now),
        (user) => libraryAccess.hiddenFrom(user),
      ),
  );
  songs.refreshPlaylistsWith(smartPlaylists);
  const playlists = make(
    'playlistsService',
    () =>
      new PlaylistsService(
        playlistsRepository,
        releaseBlobs,
        { playlistsPerUser: config.limits.playlistsPerUser, quota: uploadQuota },
        undefined,
        smartPlaylists,
      ),
  );
  const plays = make(
    'playsService',
    () => new PlaysService(createPlaysRepository(db), undefined, (message) => log.warn(message)),
  );
  // Listening statistics over the listens (issue 28); the year card is drawn through the image gate.
  const stats = make(
    'statsService',
    () => new StatsService(createStatsRepository(db, dialect), createServerStatsRepository(db, dialect), images.gate),
  );
  const listensExport = make('listensExportService', () => new ListensExportService(createListensExportRepository(db)));
  // Scrobbling out (issue 28): listens and started songs queued for each listener's ListenBrainz and Last.fm.
  const scrobbling = make(
    'scrobblingService',
    () =>
      new ScrobblingService(
        createScrobblingRepository(db, dialect),
        new SecretBox(config.secretKey, config.dataDir),
        [listenBrainz(config.scrobbling.listenBrainzUrl), lastFm(config.scrobbling.lastFmUrl)],
        { log },
      ),
  );
  plays.onListen((listen) => scrobbling.listened(listen));
  plays.onStart((userId, songId) => scrobbling.nowPlaying(userId, songId));
  const radio = make('radioService', () =>
    createRadioService(createRadioRepository(db), {
      engine: engineOnThread(),
      onError: (error) => log.error({ err: error }, 'radio: the index could not be built again'),
    }),
  );
  // The Folders view: the libraries browsed by the paths of their files.
  const folders = make(
    'libraryFoldersService',
    () => new LibraryFoldersService(createLibraryFoldersRepository(db), songs),
  );
  const search = make(
    'searchService',
    () => new SearchService(searchIndex, songs, artistsRepository, playlistsRepository, albumsRepository),
  );
  const downloads = make(
    'downloadsService',
    () => new DownloadsService(createDownloadsRepository(db), sources, offload),
  );
  const payments = make(
    'paymentsService',
    () =>
      new PaymentsService({
        repository: createPaymentsRepository(db, dialect),
        provider: createPaymentProvider(config),
        plans: buildPlans(config.prices),
        log,
        maxPendingOrders: config.limits.pendingOrdersPerUser,
      }),
  );

  // Subsonic: its sign-in, its own repositories, and its methods over the services above.
  const apiKeys = make('apiKeysService', () => new ApiKeysService(createApiKeysRepository(db)));
  const appPasswords = make(
    'appPasswordsService',
    () => new AppPasswordsService(createAppPasswordsRepository(db), new SecretBox(config.secretKey, config.dataDir)),
  );
  const subsonicAuth = make(
    'subsonicAuth',
    () => new SubsonicAuth(apiKeys, appPasswords, credentialLimits(config, counters)),
  );
  const subsonicCatalogue = make('subsonicCatalogueRepository', () => createSubsonicCatalogueRepository(db));
  const stars = make('subsonicStarsRepository', () => createSubsonicStarsRepository(db));
  const browse = make('subsonicBrowseRepository', () => createSubsonicBrowseRepository(db));
  const subsonicMedia = make('subsonicMediaRepository', () => createSubsonicMediaRepository(db));
  const activity = make('subsonicActivityRepository', () => createSubsonicActivityRepository(db));
  const bookmarks = make('subsonicBookmarksRepository', () => createSubsonicBookmarksRepository(db));

  // Devices (issue 27): the user's queue across web clients and Subsonic apps, and the live channel that carries what
  // each plays and the remote commands, on every instance (LISTEN/NOTIFY on PostgreSQL, in memory on SQLite).
  const devicesRepository = make('devicesRepository', () => createDevicesRepository(db));
  const liveHub: LiveHub = make(
    'liveHub',
    () =>
      new LiveHub({
        notifications: createNotifications({
          db,
          dialect,
          databaseUrl: config.databaseUrl,
          channel: 'tonearm_live',
          log,
        }),
        touch: (deviceIds) => devices.touch(deviceIds),
        resync: async (connection) => {
          liveHub.send(connection, frameOf('hello', await devices.hello(connection.userId, connection.deviceId)));
        },
        stillLive: (sessionIds) => sessions.stillLive(sessionIds),
        log,
      }),
  );
  // A live channel ends with its session (the hub checks on every heartbeat, and at once after a sign-out here).
  sessions.onEnded(() => {
    void liveHub.endSignedOut();
  });
  const devices: DevicesService = make(
    'devicesService',
    () => new DevicesService(devicesRepository, activity, songs, liveHub),
  );
  const subsonic = make('subsonicService', () => {
    const subsonicDeps: SubsonicDeps = {
      config,
      blobs,
      offload,
      meters,
      media,
      songs,
      songPages,
      lyrics: songLyrics,
      albums,
      artists,
      likes,
      ratings,
      playlists,
      radio,
      plays,
      search,
      searchIndex,
      downloads,
      sources,
      transcoding: transcoder !== null,
      albumRows: albumsRepository,
      catalogue: subsonicCatalogue,
      stars,
      browse,
      subsonicMedia,
      activity,
      bookmarks,
      marks: new StarMarks(stars, subsonicCatalogue, ratingsRepository),
      devices,
      libraries,
      folders,
    };
    return new SubsonicService(subsonicAuth, subsonicMethods(subsonicDeps), openSubsonicExtensions(subsonicDeps));
  });

  // Background jobs: started when the app is ready, stopped in reverse order when it closes.
  let warming: Promise<unknown> | null = null;
  const jobs: Job[] = [
    catalogue.vocabularyUpkeep,
    {
      name: 'catalogue index',
      // The shuffled song pages read an in-memory index of the catalogue: main.ts has it load now, in chunks between
      // requests, so the first listener's first page does not wait for the whole load. A failure is retried by a page.
      start: () => {
        if (options.warmCatalogue === true) warming = catalogueIndex.snapshot().catch(() => undefined);
      },
      stop: async () => {
        await warming;
        await catalogueIndex.settled();
      },
    },
    ...(media === null ? [] : [{ name: 'media handler', start: () => undefined, stop: () => media.close() }]),
    ...(gate === null ? [] : [{ name: 'media offload gate', ...gate }]),
    { name: 'live channel', start: () => liveHub.start(), stop: () => liveHub.stop() },
    { name: 'scrobbling', start: () => scrobbling.start(), stop: () => scrobbling.stop() },
    // After the media handler in this list, so it is stopped first: no scan writes while the app closes.
    { name: 'library scans', start: () => libraries.start(), stop: () => libraries.stop() },
    // After the scans in this list, so it is stopped before them: a scan ending while the app closes wakes nothing.
    { name: 'audio analysis', start: () => analysis.start(), stop: () => analysis.stop() },
    // The radio's thread starts with the first radio request; a rebuild under way ends before the thread stops.
    { name: 'radio thread', start: () => undefined, stop: () => radio.close() },
  ];

  return {
    services: {
      config,
      db,
      dialect,
      blobs,
      offload,
      images,
      setupCode,
      sessions,
      meters,
      counters,
      metrics,
      releaseBlobs,
      uploadQuota,
      media,
      transcoding: transcoder !== null,
      audioCheck,
      auth,
      users,
      userPhotos,
      playlists,
      smartPlaylists,
      plays,
      stats,
      listensExport,
      radio,
      payments,
      downloads,
      artists,
      songs,
      songPages,
      songsStream,
      songLyrics,
      likes,
      scrobbling,
      ratings,
      ratingOf,
      artistRatingsOf,
      search,
      albums,
      apiKeys,
      appPasswords,
      subsonic,
      libraries,
      folders,
      libraryAccess,
      devices,
      analysis,
    },
    catalogue,
    usersRepository,
    jobs,
    async start() {
      for (const job of jobs) await job.start();
    },
    beginClosing() {
      closing = true;
      // Open live channels would hold the server's close forever: they end now (their clients reconnect elsewhere).
      liveHub.closeAll();
    },
    async stop() {
      closing = true;
      // Every job, started or not (an app closed before it was ready still made its parts): stopping is idempotent.
      for (const job of [...jobs].reverse()) await job.stop();
    },
  };
}
