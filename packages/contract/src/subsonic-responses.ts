import { z } from 'zod';

/*
 * The Subsonic answers Tonearm serves, as the OpenSubsonic specification describes them (its OpenAPI 3.0 document,
 * `openapi/` of opensubsonic/open-subsonic-api, and the response pages of its documentation). Written for Tonearm:
 * the field names, types and which fields are required are the specification's; each object is strict, so a field
 * the specification does not name is an error too (an app would not know what to make of it).
 *
 * XML carries the same tree (scalars as attributes, objects and array items as child elements, `value` as the
 * element's text): the tests read an XML answer into this shape, guided by these schemas, and check it the same way.
 */

/** `format: date-time` (RFC 3339): a date, a time with seconds, and `Z` or an offset. */
const DateTime = z.iso.datetime({ offset: true });
const Int = z.int();
const NonNegative = z.number().min(0);

/** A genre an item carries (OpenSubsonic `genres`). */
export const SubsonicItemGenre = z.strictObject({ name: z.string() });

/** ReplayGain of a song: gains in dB, peaks as a fraction of full scale. */
export const SubsonicReplayGain = z.strictObject({
  trackGain: z.number().optional(),
  albumGain: z.number().optional(),
  trackPeak: NonNegative.optional(),
  albumPeak: NonNegative.optional(),
  baseGain: z.number().optional(),
  fallbackGain: z.number().optional(),
});

const ExplicitStatus = z.enum(['clean', 'explicit', '']);
/** A date of which only some parts may be known. */
const ItemDate = z.strictObject({
  year: Int.optional(),
  month: Int.min(1).optional(),
  day: Int.min(1).optional(),
});

/** An artist of the tag-based (ID3) model. */
export const SubsonicArtistID3 = z.strictObject({
  id: z.string(),
  name: z.string(),
  coverArt: z.string().optional(),
  artistImageUrl: z.string().optional(),
  albumCount: Int.optional(),
  starred: DateTime.optional(),
  /** Issue 28: the caller's stars on the artist, as the other entries carry theirs. */
  userRating: Int.min(1).optional(),
  musicBrainzId: z.string().optional(),
  sortName: z.string().optional(),
  disambiguation: z.string().optional(),
  roles: z.array(z.string()).optional(),
});

/** Someone credited on a song other than as its artist or album artist (composer, performer…). */
const Contributor = z.strictObject({ role: z.string(), subRole: z.string().optional(), artist: SubsonicArtistID3 });
const Work = z.strictObject({ name: z.string(), musicBrainzId: z.string().optional() });
const Movement = z.strictObject({ name: z.string(), number: Int.optional(), count: Int.optional() });

/** A file or a folder: a song in every list of songs, an album or a folder in the folder-based model. */
export const SubsonicChild = z.strictObject({
  id: z.string(),
  parent: z.string().optional(),
  isDir: z.boolean(),
  title: z.string(),
  album: z.string().optional(),
  artist: z.string().optional(),
  track: Int.optional(),
  year: Int.optional(),
  genre: z.string().optional(),
  coverArt: z.string().optional(),
  size: Int.optional(),
  contentType: z.string().optional(),
  suffix: z.string().optional(),
  transcodedContentType: z.string().optional(),
  transcodedSuffix: z.string().optional(),
  duration: Int.optional(),
  bitRate: Int.optional(),
  bitDepth: Int.optional(),
  samplingRate: Int.optional(),
  channelCount: Int.optional(),
  path: z.string().optional(),
  isVideo: z.boolean().optional(),
  userRating: Int.min(1).optional(),
  averageRating: NonNegative.optional(),
  playCount: Int.optional(),
  discNumber: Int.optional(),
  created: DateTime.optional(),
  starred: DateTime.optional(),
  albumId: z.string().optional(),
  artistId: z.string().optional(),
  type: z.enum(['music', 'video', 'podcast', 'audiobook']).optional(),
  mediaType: z.enum(['song', 'album', 'artist']).optional(),
  bookmarkPosition: Int.optional(),
  originalWidth: Int.optional(),
  originalHeight: Int.optional(),
  played: DateTime.optional(),
  bpm: Int.optional(),
  comment: z.string().optional(),
  sortName: z.string().optional(),
  musicBrainzId: z.string().optional(),
  isrc: z.array(z.string()).optional(),
  genres: z.array(SubsonicItemGenre).optional(),
  artists: z.array(SubsonicArtistID3).optional(),
  displayArtist: z.string().optional(),
  albumArtists: z.array(SubsonicArtistID3).optional(),
  displayAlbumArtist: z.string().optional(),
  contributors: z.array(Contributor).optional(),
  displayComposer: z.string().optional(),
  moods: z.array(z.string()).optional(),
  replayGain: SubsonicReplayGain.optional(),
  explicitStatus: ExplicitStatus.optional(),
  works: z.array(Work).optional(),
  movements: z.array(Movement).optional(),
  groupings: z.array(z.string()).optional(),
});

/** An album of the tag-based (ID3) model. */
export const SubsonicAlbumID3 = z.strictObject({
  id: z.string(),
  name: z.string(),
  version: z.string().optional(),
  artist: z.string().optional(),
  artistId: z.string().optional(),
  coverArt: z.string().optional(),
  songCount: Int,
  duration: Int,
  playCount: Int.optional(),
  created: DateTime,
  starred: DateTime.optional(),
  year: Int.optional(),
  genre: z.string().optional(),
  played: DateTime.optional(),
  userRating: Int.min(1).optional(),
  recordLabels: z.array(z.strictObject({ name: z.string() })).optional(),
  musicBrainzId: z.string().optional(),
  genres: z.array(SubsonicItemGenre).optional(),
  artists: z.array(SubsonicArtistID3).optional(),
  displayArtist: z.string().optional(),
  releaseTypes: z.array(z.string()).optional(),
  moods: z.array(z.string()).optional(),
  sortName: z.string().optional(),
  originalReleaseDate: ItemDate.optional(),
  releaseDate: ItemDate.optional(),
  isCompilation: z.boolean().optional(),
  explicitStatus: ExplicitStatus.optional(),
  discTitles: z.array(z.strictObject({ disc: Int, title: z.string(), coverArt: z.string().optional() })).optional(),
});

/** An album with its songs (getAlbum): `song` is required, empty for an album without any. */
export const SubsonicAlbumID3WithSongs = SubsonicAlbumID3.extend({ song: z.array(SubsonicChild) });

/** An artist with its albums (getArtist): `album` is required. */
export const SubsonicArtistWithAlbumsID3 = SubsonicArtistID3.extend({ album: z.array(SubsonicAlbumID3) });

/** An artist of the folder-based model (getIndexes, search2, getStarred). */
export const SubsonicArtist = z.strictObject({
  id: z.string(),
  name: z.string(),
  artistImageUrl: z.string().optional(),
  starred: DateTime.optional(),
  userRating: Int.min(1).optional(),
  averageRating: z.number().min(1).optional(),
});

const IndexID3 = z.strictObject({ name: z.string(), artist: z.array(SubsonicArtistID3).optional() });
const Index = z.strictObject({ name: z.string(), artist: z.array(SubsonicArtist).optional() });

/** getIndexes: `ignoredArticles` and `lastModified` (ms since the epoch) are required. */
export const SubsonicIndexes = z.strictObject({
  ignoredArticles: z.string(),
  lastModified: Int,
  shortcut: z.array(SubsonicArtist).optional(),
  child: z.array(SubsonicChild).optional(),
  index: z.array(Index).optional(),
});

/** A folder of the folder-based model (getMusicDirectory). */
export const SubsonicDirectory = z.strictObject({
  id: z.string(),
  parent: z.string().optional(),
  name: z.string(),
  starred: DateTime.optional(),
  userRating: Int.min(1).optional(),
  averageRating: z.number().min(1).optional(),
  playCount: Int.optional(),
  child: z.array(SubsonicChild).optional(),
});

/** A genre: its name is `value` (the element's text in XML). */
export const SubsonicGenre = z.strictObject({ value: z.string(), songCount: Int, albumCount: Int });

/** What the server knows of an artist beyond its name (getArtistInfo, getArtistInfo2: `similarArtist` differs). */
const artistInfoFields = {
  biography: z.string().optional(),
  musicBrainzId: z.string().optional(),
  lastFmUrl: z.string().optional(),
  smallImageUrl: z.string().optional(),
  mediumImageUrl: z.string().optional(),
  largeImageUrl: z.string().optional(),
};
export const SubsonicArtistInfo = z.strictObject({
  ...artistInfoFields,
  similarArtist: z.array(SubsonicArtist).optional(),
});
export const SubsonicArtistInfo2 = z.strictObject({
  ...artistInfoFields,
  similarArtist: z.array(SubsonicArtistID3).optional(),
});

/**
 * OpenSubsonic's sonicMatch (the sonicSimilarity extension): a song, and how like the query's (or the path's start's)
 * its sound is, from 0 (most different) to 1 (the same song); -1 when the server cannot tell.
 */
export const SubsonicSonicMatch = z.strictObject({ entry: SubsonicChild, similarity: z.number().min(-1).max(1) });

/** What the server knows of an album beyond its tracks (getAlbumInfo, getAlbumInfo2). */
export const SubsonicAlbumInfo = z.strictObject({
  notes: z.string().optional(),
  musicBrainzId: z.string().optional(),
  lastFmUrl: z.string().optional(),
  smallImageUrl: z.string().optional(),
  mediumImageUrl: z.string().optional(),
  largeImageUrl: z.string().optional(),
});

/** A song somebody plays now (getNowPlaying): a Child with who, since when, and (playbackReport) where in it. */
export const SubsonicNowPlayingEntry = SubsonicChild.extend({
  username: z.string(),
  minutesAgo: Int,
  playerId: Int,
  playerName: z.string().optional(),
  state: z.enum(['starting', 'playing', 'paused', 'stopped']).optional(),
  positionMs: Int.optional(),
  playbackRate: z.number().optional(),
});

/** A playlist as listed (getPlaylists). */
export const SubsonicPlaylist = z.strictObject({
  id: z.string(),
  name: z.string(),
  comment: z.string().optional(),
  owner: z.string().optional(),
  public: z.boolean().optional(),
  songCount: Int,
  duration: Int,
  created: DateTime,
  changed: DateTime,
  coverArt: z.string().optional(),
  allowedUser: z.array(z.string()).optional(),
  readonly: z.boolean().optional(),
  validUntil: DateTime.optional(),
});
export const SubsonicPlaylistWithSongs = SubsonicPlaylist.extend({ entry: z.array(SubsonicChild).optional() });

/**
 * The saved play queue (getPlayQueue): `username`, `changed` and `changedBy` are required, even when nothing is
 * saved; with songs (`entry`), `current` must be one of them.
 */
export const SubsonicPlayQueue = z.strictObject({
  current: z.string().optional(),
  position: Int.optional(),
  username: z.string(),
  changed: DateTime,
  changedBy: z.string(),
  entry: z.array(SubsonicChild).optional(),
});

/** The saved play queue by index (getPlayQueueByIndex, OpenSubsonic indexBasedQueue): `currentIndex` instead of `current`. */
export const SubsonicPlayQueueByIndex = SubsonicPlayQueue.omit({ current: true }).extend({
  currentIndex: Int.optional(),
});

/** A user and what they may do (getUser). */
export const SubsonicUser = z.strictObject({
  username: z.string(),
  scrobblingEnabled: z.boolean(),
  maxBitRate: Int.optional(),
  adminRole: z.boolean(),
  settingsRole: z.boolean(),
  downloadRole: z.boolean(),
  uploadRole: z.boolean(),
  playlistRole: z.boolean(),
  coverArtRole: z.boolean(),
  commentRole: z.boolean(),
  podcastRole: z.boolean(),
  streamRole: z.boolean(),
  jukeboxRole: z.boolean(),
  shareRole: z.boolean(),
  videoConversionRole: z.boolean(),
  avatarLastChanged: DateTime.optional(),
  folder: z.array(Int).optional(),
});

/** A resume point in a song (getBookmarks): `position` in ms. */
export const SubsonicBookmark = z.strictObject({
  position: Int,
  username: z.string(),
  comment: z.string().optional(),
  created: DateTime,
  changed: DateTime,
  entry: SubsonicChild,
});

/** `lyrics` (getLyrics): the text is required; artist and title are not. */
export const SubsonicLyrics = z.strictObject({
  artist: z.string().optional(),
  title: z.string().optional(),
  value: z.string(),
});

/** A line of structured lyrics: `start` (ms) only in synced lyrics. */
const LyricsLine = z.strictObject({ start: Int.min(0).optional(), value: z.string() });

/** `structuredLyrics` (the songLyrics extension): lang, synced and line are required. */
export const SubsonicStructuredLyrics = z.strictObject({
  displayArtist: z.string().optional(),
  displayTitle: z.string().optional(),
  lang: z.string(),
  offset: Int.optional(),
  synced: z.boolean(),
  line: z.array(LyricsLine),
});

/** `lyricsList` (getLyricsBySongId). */
export const SubsonicLyricsList = z.strictObject({ structuredLyrics: z.array(SubsonicStructuredLyrics).optional() });

export const SubsonicScanStatus = z.strictObject({ scanning: z.boolean(), count: Int.optional() });

export const SubsonicOpenSubsonicExtension = z.strictObject({ name: z.string(), versions: z.array(Int) });

/** The codes the specification knows. */
export const SUBSONIC_ERROR_CODES = [0, 10, 20, 30, 40, 41, 42, 43, 44, 50, 60, 70] as const;
export const SubsonicErrorBody = z.strictObject({
  code: z.literal(SUBSONIC_ERROR_CODES),
  message: z.string().optional(),
  helpUrl: z.string().optional(),
});

/** What every answer carries, ok or failed (OpenSubsonic adds `type`, `serverVersion` and `openSubsonic`). */
export const SubsonicEnvelopeFields = {
  status: z.enum(['ok', 'failed']),
  version: z.string(),
  type: z.string(),
  serverVersion: z.string(),
  openSubsonic: z.boolean(),
};
/** The envelope's field names: the rest of an answer is its body. */
export const SUBSONIC_ENVELOPE_FIELDS = Object.keys(SubsonicEnvelopeFields) as readonly string[];

/** A failed answer's body: the error and nothing else. */
export const SubsonicFailedBody = z.strictObject({ error: SubsonicErrorBody });

const nothing = z.strictObject({});
const one = <Name extends string, Schema extends z.ZodType>(name: Name, schema: Schema) =>
  z.strictObject({ [name]: schema } as Record<Name, Schema>);
const songs = z.strictObject({ song: z.array(SubsonicChild).optional() });
const folderResults = z.strictObject({
  artist: z.array(SubsonicArtist).optional(),
  album: z.array(SubsonicChild).optional(),
  song: z.array(SubsonicChild).optional(),
});
const id3Results = z.strictObject({
  artist: z.array(SubsonicArtistID3).optional(),
  album: z.array(SubsonicAlbumID3).optional(),
  song: z.array(SubsonicChild).optional(),
});

/**
 * The body of each method's successful answer (the envelope's fields removed), by method name, for every method
 * Tonearm answers in the envelope. `stream`, `download` and `getCoverArt` answer bytes (SUBSONIC_BINARY_METHODS) and
 * use the envelope only for their errors.
 */
export const SubsonicResponseBodies = {
  ping: nothing,
  getLicense: one(
    'license',
    z.strictObject({
      valid: z.boolean(),
      email: z.string().optional(),
      licenseExpires: DateTime.optional(),
      trialExpires: DateTime.optional(),
    }),
  ),
  tokenInfo: one('tokenInfo', z.strictObject({ username: z.string() })),
  getOpenSubsonicExtensions: one('openSubsonicExtensions', z.array(SubsonicOpenSubsonicExtension)),
  getLyrics: one('lyrics', SubsonicLyrics),
  getLyricsBySongId: one('lyricsList', SubsonicLyricsList),
  getMusicFolders: one(
    'musicFolders',
    z.strictObject({
      musicFolder: z.array(z.strictObject({ id: Int, name: z.string().optional() })).optional(),
    }),
  ),
  getIndexes: one('indexes', SubsonicIndexes),
  getMusicDirectory: one('directory', SubsonicDirectory),
  getGenres: one('genres', z.strictObject({ genre: z.array(SubsonicGenre).optional() })),
  getArtists: one(
    'artists',
    z.strictObject({ ignoredArticles: z.string().optional(), index: z.array(IndexID3).optional() }),
  ),
  getArtist: one('artist', SubsonicArtistWithAlbumsID3),
  getAlbum: one('album', SubsonicAlbumID3WithSongs),
  getSong: one('song', SubsonicChild),
  getArtistInfo: one('artistInfo', SubsonicArtistInfo),
  getArtistInfo2: one('artistInfo2', SubsonicArtistInfo2),
  getAlbumInfo: one('albumInfo', SubsonicAlbumInfo),
  getAlbumInfo2: one('albumInfo', SubsonicAlbumInfo),
  getAlbumList: one('albumList', z.strictObject({ album: z.array(SubsonicChild).optional() })),
  getAlbumList2: one('albumList2', z.strictObject({ album: z.array(SubsonicAlbumID3).optional() })),
  getRandomSongs: one('randomSongs', songs),
  getSongsByGenre: one('songsByGenre', songs),
  getSimilarSongs: one('similarSongs', songs),
  getSimilarSongs2: one('similarSongs2', songs),
  getTopSongs: one('topSongs', songs),
  getSonicSimilarTracks: one('sonicMatch', z.array(SubsonicSonicMatch)),
  findSonicPath: one('sonicMatch', z.array(SubsonicSonicMatch)),
  getNowPlaying: one('nowPlaying', z.strictObject({ entry: z.array(SubsonicNowPlayingEntry) })),
  getStarred: one('starred', folderResults),
  getStarred2: one('starred2', id3Results),
  search2: one('searchResult2', folderResults),
  search3: one('searchResult3', id3Results),
  star: nothing,
  unstar: nothing,
  setRating: nothing,
  getPlaylists: one('playlists', z.strictObject({ playlist: z.array(SubsonicPlaylist).optional() })),
  getPlaylist: one('playlist', SubsonicPlaylistWithSongs),
  createPlaylist: one('playlist', SubsonicPlaylistWithSongs),
  updatePlaylist: nothing,
  deletePlaylist: nothing,
  scrobble: nothing,
  reportPlayback: nothing,
  getPlayQueue: one('playQueue', SubsonicPlayQueue),
  savePlayQueue: nothing,
  getPlayQueueByIndex: one('playQueueByIndex', SubsonicPlayQueueByIndex),
  savePlayQueueByIndex: nothing,
  getBookmarks: one('bookmarks', z.strictObject({ bookmark: z.array(SubsonicBookmark).optional() })),
  createBookmark: nothing,
  deleteBookmark: nothing,
  getUser: one('user', SubsonicUser),
  getScanStatus: one('scanStatus', SubsonicScanStatus),
  startScan: one('scanStatus', SubsonicScanStatus),
} as const satisfies Record<string, z.ZodType>;

export type SubsonicMethodWithBody = keyof typeof SubsonicResponseBodies;
export type SubsonicResponseBody<M extends SubsonicMethodWithBody> = z.infer<(typeof SubsonicResponseBodies)[M]>;

/** The methods that answer bytes on success (audio, an image), and the envelope only for an error. */
export const SUBSONIC_BINARY_METHODS = ['stream', 'download', 'getCoverArt'] as const;
