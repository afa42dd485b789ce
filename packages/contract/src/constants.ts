/** Business constants of SPEC §9 and the limits of DESIGN §6. */
export const RECENT_SONGS_MAX = 10;
export const ALERT_HIDE_MS = 3000;
export const AUTH_CHECK_INTERVAL_MS = 300_000;
export const SONG_LOAD_RETRY_MS = 5000;
export const SONG_LOAD_MAX_FAILURES = 5;
export const PREMIUM_PRELOAD_DELAY_MS = 2000;
export const PLAYLIST_POPUP_CLOSE_MS = 1000;
export const GREETING_AFTERNOON_HOUR = 12;
export const GREETING_EVENING_HOUR = 18;

/** Local-storage keys of SPEC §3. */
export const StorageKeys = {
  user: 'userdata',
  recentSongs: 'song',
  downloadedSongs: 'downloadedSong',
} as const;

/** The earliest and latest year an album or a song may carry (issue 12). */
export const YEAR_MIN = 1000;
export const YEAR_MAX = 9999;

export const AUDIO_MAX_BYTES = 200 * 1024 * 1024;
export const IMAGE_MAX_BYTES = 15 * 1024 * 1024;
/**
 * The longest lyrics text (issue 27), as UTF-8: a sidecar file, an embedded tag, a paste or an uploaded file. A song's
 * LRC with word times is a few tens of KB; past this it is not lyrics.
 */
export const LYRICS_MAX_BYTES = 256 * 1024;
export const THUMBNAIL_WIDTHS = [64, 300, 640] as const;
export type ThumbnailWidth = (typeof THUMBNAIL_WIDTHS)[number];

export const AUDIO_MIME_TYPES = [
  'audio/mpeg',
  'audio/flac',
  'audio/ogg',
  'audio/opus',
  'audio/mp4',
  'audio/aac',
  'audio/wav',
] as const;
export const IMAGE_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

export const PLAYLIST_TYPE_MAX = 40;
export const NAME_MAX = 200;
export const PAGE_LIMIT_MAX = 500;
/** A cursor page's size when the client names none. */
export const PAGE_LIMIT_DEFAULT = 50;
/** The longest page cursor accepted (cursors are opaque base64url text made by the server). */
export const PAGE_CURSOR_MAX = 512;
/** Seeds of the server-side shuffle: 0 to this (a 31-bit integer, the same on both dialects). */
export const SHUFFLE_SEED_MAX = 2_147_483_647;

/**
 * The largest id the database holds: ids are 32-bit signed integers on PostgreSQL (`integer`), and the same bound
 * keeps SQLite (64-bit) answering alike. Every id taken from a client is checked against it.
 */
export const DB_ID_MAX = 2_147_483_647;
/** The largest paging offset accepted (the same 32-bit bound as ids: no table holds more rows). */
export const PAGE_OFFSET_MAX = DB_ID_MAX;

/**
 * The sorted orders of GET /api/songs/page (issue 26), besides the shuffle and newest first; here, away from zod, as
 * the web app reads them at start-up.
 */
export const SONG_SORT_COLUMNS = ['title', 'artist', 'album', 'genre', 'added', 'duration', 'plays', 'rating'] as const;
export type SongSortColumn = (typeof SONG_SORT_COLUMNS)[number];
export const SONG_PAGE_ORDERS = ['shuffle', 'newest', ...SONG_SORT_COLUMNS] as const;
export type SongPageOrder = (typeof SONG_PAGE_ORDERS)[number];
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];
/**
 * The direction of a sorted order when none is given (GET /api/songs/page without `direction`), and of a column
 * header's first click: ascending, but the most played and the highest rated first.
 */
export const FIRST_SORT_DIRECTION: Record<SongSortColumn, SortDirection> = {
  title: 'asc',
  artist: 'asc',
  album: 'asc',
  genre: 'asc',
  added: 'asc',
  duration: 'asc',
  plays: 'desc',
  /** Issue 28: the caller's own stars, highest first and unrated last. */
  rating: 'desc',
};
