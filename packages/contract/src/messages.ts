import { DB_ID_MAX, LYRICS_MAX_BYTES, PAGE_OFFSET_MAX } from './constants.js';

/**
 * Every user-facing text of the product. SPEC §8 strings are reproduced exactly; the server texts are the
 * `text/plain` answers DESIGN §4 names. Tests import these constants instead of repeating the strings.
 */
export const ClientMessages = {
  errorFetchingArtists: 'Error fetching artists',
  errorFetchingSongs: 'Error fetching songs. Please try again later.',
  uploadBothFiles: 'Please upload both song and image files.',
  failedToAddSong: 'Failed to add song',
  errorAddingSong: 'Error adding song',
  failedToFetchPlaylists: 'Failed to fetch playlists',
  failedToLoadPlaylists: 'Failed to load playlists.',
  selectPlaylist: 'Please select a playlist.',
  failedToAddSongToPlaylist: 'Failed to add song to playlist.',
  songNotDeleted: 'Song not deleted',
  playlistNotFound: 'Playlist Not Found',
  selectPlaylistTitle: 'Select a Playlist',
  playlistPlus: 'Playlist +',
} as const;

export const ServerMessages = {
  userRegistered: 'User registered successfully',
  usernameTaken: 'Username already taken',
  emailTaken: 'Email already registered',
  invalidCredentials: 'Invalid username or password',
  notAuthenticated: 'Please log in to continue',
  forbidden: 'You do not have permission to do that',
  notFound: 'Not found',
  rateLimited: 'Too many attempts. Please wait a minute and try again.',
  badOrigin: 'Cross-site request refused',
  accountLocked: 'Too many failed sign-ins for this account. Please wait a few minutes and try again.',
  internalError: 'Something went wrong on our side. Please try again.',
  lastAdmin: 'The last administrator cannot be removed or demoted',
  wrongCurrentPassword: 'Current password is incorrect',
  onlyAdminChangesRole: 'Only an administrator can change roles or premium',
  pong: 'pong',
  songAdded: 'Song added successfully',
  songUpdated: 'Song updated successfully',
  songDeleted: 'Song deleted successfully',
  songExists: 'This audio file is already in the catalogue',
  uploadBothFiles: ClientMessages.uploadBothFiles,
  artistNotFound: 'Artist not found',
  artistExists: 'An artist with this name already exists',
  albumExists: 'This artist already has an album with this name',
  albumNotFound: 'Album not found',
  songAddedToPlaylist: 'Song added to playlist',
  songAlreadyInPlaylist: 'Song already in playlist',
  songRemovedFromPlaylist: 'Song removed from playlist',
  premiumRequired: 'Downloads are a Premium feature. Upgrade on the payment page to download songs.',
  cardDeclined: 'Your card was declined. No payment was taken.',
  invalidSignature: 'Invalid webhook signature',
  referenceGone: 'Something this refers to was just deleted. Reload and try again.',
  metricsTokenRequired: 'The metrics need the token: send Authorization: Bearer <METRICS_TOKEN>',
} as const;

/**
 * Answers to requests the server cannot take as sent (before any feature's rules apply): broken bodies, bad encodings,
 * out-of-range ids, NUL characters, timeouts. `byStatus` words any other client error a framework or plugin reports.
 */
export const RequestMessages = {
  invalidRequest: 'Invalid request',
  bodyNotObject: 'Request body must be a JSON object',
  malformedJson: 'Malformed JSON body',
  emptyJson: 'Request body is empty but declared as JSON',
  bodyTooLarge: 'Request body is too large',
  unsupportedContentType: 'Unsupported content type',
  contentLengthMismatch: 'Content-Length does not match the body',
  unsupportedContentEncoding: 'Unsupported Content-Encoding: send the body uncompressed, or as gzip, deflate or br',
  undecodableBody: 'The request body could not be decompressed with the Content-Encoding it declares',
  nulCharacter: 'Text may not contain the NUL character (U+0000)',
  idOutOfRange: `Ids are whole numbers from 1 to ${DB_ID_MAX}`,
  offsetOutOfRange: `Offset must be at most ${PAGE_OFFSET_MAX}`,
  badCursor: 'This page cursor is not valid here: start again from the first page',
  requestTimeout: 'The request took too long to arrive. Please try again.',
  byStatus: {
    400: 'The request could not be understood',
    401: ServerMessages.notAuthenticated,
    403: ServerMessages.forbidden,
    404: ServerMessages.notFound,
    405: 'This method is not allowed here',
    408: 'The request took too long to arrive. Please try again.',
    409: 'The request conflicts with the current state. Reload and try again.',
    411: 'Send the body with a Content-Length',
    413: 'Request body is too large',
    414: 'The address is too long',
    415: 'Unsupported content type',
    416: 'The requested range cannot be served',
    429: ServerMessages.rateLimited,
    431: 'The request headers are too large',
  } as Readonly<Record<number, string>>,
  /** Any other 4xx status. */
  otherClientError: 'The request could not be processed',
} as const;

/** Shown where an artist was deleted but its songs remain. */
export const UNKNOWN_ARTIST = 'Unknown artist';

/**
 * The name of an artist's placeholder album (issue 25): the songs of that artist without an album tag are on it, so
 * every song is reachable by album. The name is reserved for it: no other album of the artist may take it.
 */
export const UNKNOWN_ALBUM = 'Unknown album';

/** Texts of the web app's playlist page about playlists from files and the M3U8 export (issue 25). */
export const PlaylistClientMessages = {
  exportM3u8: 'Export M3U8',
  exportM3u8Label: (name: string) => `Export ${name} as an M3U8 file`,
  fromFileEyebrow: 'Playlist from a file',
  fromFile: (path: string) =>
    `Read from ${path} in a music library and kept in sync with it: change the file to change this playlist.`,
} as const;

/** Server texts of the playlist endpoints besides those in ServerMessages (spec texts). */
export const PlaylistMessages = {
  playlistDeleted: 'Playlist deleted',
  songNotInPlaylist: 'Song is not in this playlist',
  songNotFound: 'Song not found',
  orderNotPermutation: 'The new order must list every song of the playlist exactly once',
  unknownSongs: 'Unknown song ids:',
  /** 403 to every edit of a playlist that follows a file of a library (issue 25). */
  readOnlyFromFile:
    'This playlist follows a playlist file in a music library and cannot be changed in Tonearm: edit the file instead',
  /** 403 to adding, removing or reordering songs of a smart playlist (issue 28). */
  smartChoosesSongs: 'A smart playlist chooses its own songs: change its rules instead',
  /** 409 to a smart playlist's edit of a playlist that is not one. */
  notSmart: 'This playlist is not a smart playlist',
} as const;

/**
 * Audio files ffmpeg cannot use: refused at upload and import (415, the import's reason), or, stored before that
 * check, asked for in another format (415 from /media, error 0 from Subsonic's `stream`).
 */
export const AudioFileMessages = {
  unreadable: 'The audio could not be decoded: the file is damaged, or its header does not match its contents',
  truncated: 'The file is truncated or corrupt: its audio ends before its header says it does',
  notConvertible: 'The audio could not be converted to the format asked for: its file cannot be decoded',
} as const;

/**
 * Texts of account creation, claiming the server and credentials (server answers and web app alike). Here with the
 * other texts, not beside the account schemas: the sign-in page reads them without loading zod.
 */
export const AccountMessages = {
  registrationClosed: 'Registration is closed on this server. Ask an administrator to create an account for you.',
  invalidSetupCode:
    'This setup code is not valid: it is wrong, or the server already has an administrator. Use the address printed in the server log.',
  /** The sign-up form, when registering will make this account the administrator. */
  willAdminister: 'This account will administer the server: it manages the catalogue, the users and Premium.',
  enterCurrentPassword: 'Enter your current password',
  userCreated: (username: string) => `Created the account ${username}`,
  failedToCreateUser: 'Failed to create the account',
  loggedOutEverywhere: 'You were logged out on every device',
  failedToLogOutEverywhere: 'Could not log out everywhere',
} as const;

/**
 * Texts of lyrics (issue 27): why a text is not lyrics (lrc.ts names the line that is wrong), and the lyrics view.
 * Here, away from zod: the song form and the player read them.
 */
export const LyricsMessages = {
  badLine: (line: number, text: string, why: string) => `Line ${line} ("${text}"): ${why}`,
  notAStamp: (stamp: string) => `[${stamp}] is not a time like [01:23.45]`,
  secondsTooHigh: (stamp: string) => `the seconds of [${stamp}] must be below 60`,
  noStamp: 'this line has no time, but other lines do: every line of synced lyrics starts with one, like [01:23.45]',
  badOffset: 'the offset must be a whole number of milliseconds, like [offset:+250]',
  empty: 'There are no lyrics in this text',
  tooLarge: `Lyrics can be at most ${LYRICS_MAX_BYTES / 1024} KB`,
  notText: 'The lyrics file is not text: send LRC or plain text (UTF-8)',
  textOrFile: 'Paste the lyrics or choose a lyrics file',
  noLyrics: 'No lyrics for this song.',
  lyricsSaved: 'Lyrics saved',
  lyricsRemoved: 'Lyrics removed',
} as const;
