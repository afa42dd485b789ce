import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** A nullable column that an insert may leave out (it is then null): the columns later migrations add. */
type Optional<T> = ColumnType<T | null, T | null | undefined, T | null>;

/*
 * Kysely types of every table (DESIGN §3). Portable conventions, the same on SQLite and PostgreSQL:
 * ids are integer autoincrement; timestamps are ISO-8601 UTC strings (`new Date().toISOString()`), which sort
 * correctly as text; booleans are integers 0/1. Column names are snake_case.
 */

export type RoleValue = 'USER' | 'ADMIN';
export type OrderStatusValue = 'pending' | 'paid' | 'failed';

export interface UsersTable {
  id: Generated<number>;
  /** As typed at registration; uniqueness is case-insensitive (unique index on lower(username)). */
  username: string;
  /** Stored lower-cased, so the plain unique constraint is case-insensitive. */
  email: string;
  password_hash: string;
  gender: string | null;
  address: string | null;
  role: RoleValue;
  premium_until: string | null;
  image_key: string | null;
  subsonic_secret: string | null;
  created_at: string;
}

export interface SessionsTable {
  /** sha256 hex of the opaque token the browser holds; the token itself is never stored. */
  id: string;
  user_id: number;
  expires_at: string;
  created_at: string;
}

export interface ArtistsTable {
  id: Generated<number>;
  name: string;
  image_key: string | null;
  /** MusicBrainz artist id, when a file's tags gave it (migration 019). */
  mb_artist_id: Optional<string>;
}

export interface SongsTable {
  id: Generated<number>;
  name: string;
  genre: string;
  /** Null once the artist is deleted (songs keep playing as "Unknown artist"). */
  artist_id: number | null;
  audio_key: string;
  audio_sha256: string;
  mime: string;
  size_bytes: number;
  duration_ms: number | null;
  image_key: string | null;
  created_at: string;
  /** What the file's tags say (migration 006); null when unknown. */
  year: Optional<number>;
  bitrate_kbps: Optional<number>;
  sample_rate_hz: Optional<number>;
  /** The container: mp3, flac, ogg, opus, m4a, wav… */
  format: Optional<string>;
  /** The genre tag's own text (the catalogue genre is one of SPEC §5's list). */
  genre_tag: Optional<string>;
  /** ReplayGain from the file's tags (migration 007): gain in dB, peak as a fraction of full scale. */
  replay_gain_track_db: Optional<number>;
  replay_gain_track_peak: Optional<number>;
  replay_gain_album_db: Optional<number>;
  replay_gain_album_peak: Optional<number>;
  /** The library whose folder holds its file (migration 017); null for a stored upload or import. */
  library_id: Optional<number>;
  /** When its library file was found gone (migration 017); null while it is there. */
  missing_since: Optional<string>;
  /** The artist as the file displays it ("A feat. B"), MusicBrainz ids and the original date (migration 019). */
  display_artist: Optional<string>;
  mb_recording_id: Optional<string>;
  mb_track_id: Optional<string>;
  original_date: Optional<string>;
  /** Plays of the song by anyone (migration 023); one more with every play recorded. */
  play_count: ColumnType<number, number | undefined, number>;
}

/** An album: a name under an album artist (migration 006). Its song count and length come from its tracks. */
export interface AlbumsTable {
  id: Generated<number>;
  name: string;
  /** The album artist; null for "Unknown artist" (or once the artist is deleted). */
  artist_id: number | null;
  year: number | null;
  image_key: string | null;
  created_at: string;
  /** MusicBrainz release and release group, release types (JSON array), original date (migration 019). */
  mb_release_id: Optional<string>;
  mb_release_group_id: Optional<string>;
  release_types: Optional<string>;
  original_date: Optional<string>;
  /** 1 for a compilation (tagged so, or by "Various Artists"). */
  is_compilation: ColumnType<number, number | undefined, number>;
  /**
   * 1 for the placeholder album (migration 018): "Unknown album" (the contract's UNKNOWN_ALBUM), where an artist's songs
   * without an album tag are; 0 for every other album. Its name is reserved: no other album takes it.
   */
  is_placeholder: Generated<number>;
}

/** A song on an album, at a disc and track number: every song is on exactly one (migration 018). */
export interface AlbumTracksTable {
  song_id: number;
  album_id: number;
  disc_number: number | null;
  track_number: number | null;
}

export interface PlaylistsTable {
  id: Generated<number>;
  owner_id: number;
  name: string;
  type: string;
  /** 0 or 1. */
  is_public: number;
  image_key: string | null;
  created_at: string;
  /** The library whose `.m3u`/`.m3u8` file this playlist follows (migration 021); null for one made in Tonearm. */
  library_id: Optional<number>;
  /** That file's path relative to the library, `/` between parts; null for one made in Tonearm. */
  source_path: Optional<string>;
  /** A smart playlist's rules, the contract's SmartDefinition as JSON (migration 031); null for any other playlist. */
  smart_rules: Optional<string>;
}

export interface PlaylistSongsTable {
  playlist_id: number;
  song_id: number;
  position: number;
  added_at: string;
}

export interface LikesTable {
  user_id: number;
  song_id: number;
  created_at: string;
}

export interface PlaysTable {
  id: Generated<number>;
  user_id: number;
  song_id: number;
  played_at: string;
}

export interface OrdersTable {
  id: Generated<number>;
  /** Null once the user is deleted: the payment record itself is kept. */
  user_id: number | null;
  plan: string;
  amount_cents: number;
  currency: string;
  provider: string;
  provider_ref: string | null;
  status: OrderStatusValue;
  created_at: string;
  paid_at: string | null;
}

/** One image a user stored (profile photo, playlist cover): what the daily upload allowance counts. */
export interface ImageUploadsTable {
  id: Generated<number>;
  /** Who uploaded it (the actor, also when an admin sets someone else's photo). */
  user_id: number;
  /** Size of the upload as sent. */
  bytes: number;
  created_at: string;
}

/** One row (id 1): moves with every write that changes which songs a list holds (migration 004's triggers). */
export interface CatalogueVersionTable {
  id: number;
  version: number;
}

/** The file of an imported folder a song came from, as it was when imported (migration 007). */
export interface ImportSourcesTable {
  path: string;
  song_id: number;
  size_bytes: number;
  modified_ms: number;
  sha256: string;
}

/** An API key of a Subsonic app (migration 010): only the sha256 (hex) of the key is kept. */
export interface SubsonicApiKeysTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  key_hash: string;
  created_at: string;
  last_used_at: string | null;
}

/** A user's star on an album (migration 011; songs' stars are likes). */
export interface AlbumStarsTable {
  user_id: number;
  album_id: number;
  created_at: string;
}

/** A user's star on an artist (migration 011). */
export interface ArtistStarsTable {
  user_id: number;
  artist_id: number;
  created_at: string;
}

/** What a Subsonic app last said it plays (migration 012): one row per user and client app. */
export interface SubsonicNowPlayingTable {
  id: Generated<number>;
  user_id: number;
  /** The app's `c` parameter. */
  client: string;
  song_id: number;
  reported_at: string;
  /** OpenSubsonic playbackReport (migration 025): starting, playing or paused; null for a plain scrobble report. */
  state: Optional<string>;
  /** The position reported (ms) and when it was. */
  position_ms: Optional<number>;
  position_at: Optional<string>;
  playback_rate: Optional<number>;
  /** 1 once this playback has counted as a play. */
  counted: ColumnType<number, number | undefined, number>;
}

/** A user's resume point in a song (migration 025): Subsonic's bookmarks. */
export interface SubsonicBookmarksTable {
  user_id: number;
  song_id: number;
  position_ms: number;
  comment: string | null;
  created_at: string;
  changed_at: string;
}

/** The play queue a user saved from a Subsonic app (migration 012), to resume on another device. */
export interface PlayQueuesTable {
  user_id: number;
  /** Null once that song is deleted. */
  current_song_id: number | null;
  position_ms: number;
  changed_at: string;
  /** The name of the device or client app that saved it (`c`). */
  changed_by: string;
  /** The device that saved it (migration 026); null before, or from a caller that is no device. */
  device_id: Generated<number | null>;
  /** Its current place in play_queue_songs (migration 026); null: the first place of `current_song_id`. */
  current_index: Generated<number | null>;
}

/** A user's web client or Subsonic app (migration 026), and what it last said it plays. */
export interface DevicesTable {
  id: Generated<number>;
  user_id: number;
  /** `web:` and the client's own key, or `subsonic:` and the app's `c`. */
  key: string;
  kind: 'web' | 'subsonic';
  name: string;
  state: 'playing' | 'paused' | 'stopped' | null;
  song_id: number | null;
  position_ms: number | null;
  position_at: string | null;
  volume: number | null;
  created_at: string;
  last_seen_at: string;
}

export interface PlayQueueSongsTable {
  user_id: number;
  position: number;
  song_id: number;
}

/** Rate-limit and sign-in failure counters shared by every instance (migration 013). */
export interface RateCountersTable {
  /** What is counted and for whom, e.g. `login:user:7` or `route:POST/api/auth/login:127.0.0.1`. */
  key: string;
  count: number;
  /** When the window ends, in epoch milliseconds. */
  resets_at: number;
}

/** A music folder on the server read in place (migration 017). */
export interface LibrariesTable {
  id: Generated<number>;
  name: string;
  /** Absolute, as the administrator gave it (resolved). */
  path: string;
  created_at: string;
  /** 1: every user sees the library; 0: administrators and its members only (migration 020). */
  everyone: Generated<number>;
  /**
   * The administrator who owns the library's scan and so its playlists from files (migration 021): who added it, or,
   * while null or no longer an administrator, the first administrator (set by the next scan).
   */
  owner_id: Optional<number>;
}

/** A user who sees a library that is not everyone's (migration 020). */
export interface LibraryMembersTable {
  library_id: number;
  user_id: number;
}

/** The file a library song is (migration 017), as it was when last read. */
export interface LibraryFilesTable {
  song_id: number;
  library_id: number;
  /** Relative to the library's folder, with `/` between parts. */
  path: string;
  size_bytes: number;
  modified_ms: number;
  /** What a moved file is recognised by (library-scan.ts). */
  fingerprint: string;
  /** The lyrics file beside it when it was read, `name:size:mtime` (migration 024); null: none. */
  lyrics_file: string | null;
}

/** Where the original of a cover read from a library is (migration 017): its thumbnails are made from it on demand. */
export interface LibraryImagesTable {
  /** The image key songs and albums hold (`<sha256>.<ext>` of the picture's bytes). */
  image_key: string;
  library_id: number;
  /** The audio file it is embedded in, or the image file, relative to the library. */
  path: string;
  /** 1: a picture embedded in the audio file at `path`; 0: the image file at `path`. */
  embedded: number;
}

/** A scan of a library (migration 017): its counts, report and heartbeat. */
export interface LibraryScansTable {
  id: Generated<number>;
  library_id: number;
  state: 'running' | 'done' | 'failed';
  started_at: string;
  finished_at: string | null;
  heartbeat_at: string;
  seen: Generated<number>;
  /** Files gone through so far (unchanged ones included): `done / seen` is the progress. */
  done: Generated<number>;
  added: Generated<number>;
  updated: Generated<number>;
  moved: Generated<number>;
  missing: Generated<number>;
  errors: Generated<number>;
  /** JSON: the first problems met, `{ path, reason }[]`. */
  problems: Generated<string>;
  /** Playlist files (`.m3u`, `.m3u8`) read (migration 021). */
  playlists: Generated<number>;
  /** Their entries that matched no song of the library (migration 021). */
  unmatched_entries: Generated<number>;
}

/** A song's credit beyond its main artist (migration 019): another artist, an album artist, a contributor. */
export interface SongArtistsTable {
  song_id: number;
  artist_id: number;
  /** `artist`, `albumartist`, or a contributor's role (composer, performer…). */
  role: string;
  /** The instrument or voice of a performer; '' when none. */
  sub_role: string;
  /** Order among the song's credits of the same role (the main artist, songs.artist_id, is before all). */
  position: number;
}

/** A song's lyrics (migration 024): from its file's tags, the file beside it, or an administrator. */
export interface SongLyricsTable {
  song_id: number;
  source: 'embedded' | 'sidecar' | 'uploaded';
  /** ISO 639 code; null when unknown. */
  lang: string | null;
  /** 1: synced (line times); 0: plain. */
  synced: number;
  /** LRC's `[offset:]` in ms (positive: lines show sooner); the line times are kept as written. */
  offset_ms: number;
  /** JSON: `[{ startMs?, text, words?: [{ startMs, text }] }]`. */
  lines: string;
  updated_at: string;
}

/** A user's 1–5 stars on a song, an album or an artist (migration 027). */
export interface SongRatingsTable {
  user_id: number;
  song_id: number;
  rating: number;
  updated_at: string;
}
export interface AlbumRatingsTable {
  user_id: number;
  album_id: number;
  rating: number;
  updated_at: string;
}
export interface ArtistRatingsTable {
  user_id: number;
  artist_id: number;
  rating: number;
  updated_at: string;
}

/** A play that counted (half the song or 4 minutes; migration 027), kept for statistics, export and scrobbling. */
export interface ListensTable {
  id: Generated<number>;
  user_id: number;
  /** Null once the song is deleted (the listen still counts in minutes listened). */
  song_id: number | null;
  /** When the listen began (ISO). */
  played_at: string;
  listened_ms: number;
  source: 'web' | 'subsonic';
  /** The device's or Subsonic app's name; null when unknown. */
  client: string | null;
}

/** A song's audio analysis (migration 027): little-endian float32 values in the layout `version` names. */
export interface SongFeaturesTable {
  song_id: number;
  version: number;
  /** Null when the analysis failed (`failed` says why). */
  vector: Buffer | null;
  failed: string | null;
  analysed_at: string;
  /** The song's audio key when it was analysed (migration 033): a row of another key is out of date. */
  audio_key: Optional<string>;
}

/** A listener's account at a scrobbling service (migration 030); `secrets` sealed by the SecretBox. */
export interface ScrobbleAccountsTable {
  id: Generated<number>;
  user_id: number;
  service: 'listenbrainz' | 'lastfm';
  secrets: string;
  remote_name: string;
  state: 'ok' | 'attention';
  last_error: string | null;
  last_sent_at: string | null;
  connected_at: string;
}

/** A listen or a started song waiting to be sent to one account (migration 030). */
export interface ScrobbleQueueTable {
  id: Generated<number>;
  account_id: number;
  kind: 'listen' | 'now_playing';
  listen_id: number | null;
  artist: string;
  title: string;
  album: string | null;
  duration_ms: number | null;
  played_at: string;
  attempts: Generated<number>;
  next_attempt_at: string;
  claimed_until: string | null;
  last_error: string | null;
  created_at: string;
}

export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  artists: ArtistsTable;
  songs: SongsTable;
  playlists: PlaylistsTable;
  playlist_songs: PlaylistSongsTable;
  likes: LikesTable;
  plays: PlaysTable;
  orders: OrdersTable;
  image_uploads: ImageUploadsTable;
  catalogue_version: CatalogueVersionTable;
  catalogue_rows_version: CatalogueVersionTable;
  albums: AlbumsTable;
  album_tracks: AlbumTracksTable;
  import_sources: ImportSourcesTable;
  subsonic_api_keys: SubsonicApiKeysTable;
  album_stars: AlbumStarsTable;
  artist_stars: ArtistStarsTable;
  subsonic_now_playing: SubsonicNowPlayingTable;
  subsonic_bookmarks: SubsonicBookmarksTable;
  play_queues: PlayQueuesTable;
  play_queue_songs: PlayQueueSongsTable;
  devices: DevicesTable;
  rate_counters: RateCountersTable;
  libraries: LibrariesTable;
  library_files: LibraryFilesTable;
  library_members: LibraryMembersTable;
  library_images: LibraryImagesTable;
  library_scans: LibraryScansTable;
  song_artists: SongArtistsTable;
  song_lyrics: SongLyricsTable;
  song_ratings: SongRatingsTable;
  album_ratings: AlbumRatingsTable;
  artist_ratings: ArtistRatingsTable;
  listens: ListensTable;
  song_features: SongFeaturesTable;
  scrobble_accounts: ScrobbleAccountsTable;
  scrobble_queue: ScrobbleQueueTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type ArtistRow = Selectable<ArtistsTable>;
export type AlbumRow = Selectable<AlbumsTable>;
export type AlbumTrackRow = Selectable<AlbumTracksTable>;
export type SongRow = Selectable<SongsTable>;
export type PlaylistRow = Selectable<PlaylistsTable>;
export type PlaylistSongRow = Selectable<PlaylistSongsTable>;
export type LikeRow = Selectable<LikesTable>;
export type PlayRow = Selectable<PlaysTable>;
export type OrderRow = Selectable<OrdersTable>;
export type SubsonicApiKeyRow = Selectable<SubsonicApiKeysTable>;
