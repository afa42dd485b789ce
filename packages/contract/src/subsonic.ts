import { z } from 'zod';
import { textField } from './text.js';
import { DbIdText } from './common.js';

/** The Subsonic API version Tonearm answers as (OpenSubsonic builds on 1.16.1). */
export const SUBSONIC_API_VERSION = '1.16.1';

/** Subsonic's error codes, answered inside a normal HTTP 200 response with `status="failed"`. */
export const SubsonicErrorCodes = {
  generic: 0,
  missingParameter: 10,
  wrongCredentials: 40,
  tokenAuthNotSupported: 41,
  authMechanismNotSupported: 42,
  conflictingAuth: 43,
  invalidApiKey: 44,
  notAuthorized: 50,
  notFound: 70,
} as const;
export type SubsonicErrorCode = (typeof SubsonicErrorCodes)[keyof typeof SubsonicErrorCodes];

export const SubsonicMessages = {
  missingParameter: (name: string) => `Required parameter is missing: ${name}`,
  missingAuth: 'Required parameter is missing: apiKey',
  unknownMethod: (method: string) => `Unknown method: ${method}`,
  /** The account's login password is never accepted here: only the app password of the profile page (or an API key). */
  wrongCredentials: 'Wrong username or app password (use the app password from your profile, not your login password)',
  conflictingAuth: 'apiKey cannot be combined with u, p, t or s',
  passwordWithToken: 'p cannot be combined with t or s: send the password or the token and its salt, not both',
  invalidApiKey: 'Invalid API key',
  notFound: (what: string) => `${what} not found`,
  badNumber: (name: string) => `Parameter ${name} must be a whole number`,
  badRequest: 'The request could not be read',
  serverError: 'The server could not answer this request',
  starNothing: 'Required parameter is missing: id, albumId or artistId',
  /** setRating (issue 28): error 0 for a rating that is no whole number from 0 to 5. */
  ratingRange: 'Parameter rating must be a whole number from 0 (no rating) to 5',
  playlistOfOtherUser: 'Only an administrator may list the playlists of another user',
  badBoolean: (name: string) => `Parameter ${name} must be true or false`,
  playlistNameOrId: 'Required parameter is missing: name or playlistId',
  songIndex: (index: string) => `No song at index ${index} of the playlist`,
  unknownListType: (type: string) => `Unknown album list type: ${type}`,
  musicFolder: 'Music folder',
  badStreamFormat: (format: string) => `Unknown format: ${format} (use raw, mp3 or opus)`,
  badTimeOffset: 'Parameter timeOffset must be a number of seconds, at least 0',
  coverArtNotFound: 'Cover art not found',
  currentNotInQueue: "The current song must be one of the queue's songs (id)",
  queueTooLong: (max: number) => `A play queue holds at most ${max} songs`,
  badCurrentIndex: (count: number) => `currentIndex must be a place in the queue, from 0 to ${count - 1}`,
  timesDoNotMatch: 'Give one time per id, or none',
  otherUserNeedsAdmin: 'Only an administrator may see another user',
  noSuchUser: (username: string) => `User not found: ${username}`,
  scanNeedsAdmin: 'Only an administrator may start a scan',
  commentTooLong: (max: number) => `A comment holds at most ${max} characters`,
  badPlaybackState: (state: string) => `Unknown state: ${state} (use starting, playing, paused or stopped)`,
  badPlaybackRate: 'Parameter playbackRate must be a number above 0',
  badMediaType: (type: string) => `Unknown mediaType: ${type} (use song or podcast)`,
} as const;

export const API_KEY_NAME_MAX = 100;

export const CreateApiKeyRequest = z.object({ name: textField().trim().min(1).max(API_KEY_NAME_MAX) });
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequest>;

/** An API key as listed: never the key itself, which only its creation answers. */
export const ApiKey = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

/** `201` of creating a key: the key is shown this once. */
export const CreatedApiKey = z.object({ id: z.number().int(), name: z.string(), key: z.string() });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const ApiKeyListResponse = z.object({ apiKeys: z.array(ApiKey) });
export type ApiKeyListResponse = z.infer<typeof ApiKeyListResponse>;

export const ApiKeyParam = z.object({ id: DbIdText, keyId: DbIdText });
export type ApiKeyParam = z.infer<typeof ApiKeyParam>;

/**
 * `201` of generating an app password (`POST /api/users/:id/subsonic-password`): the password is shown this once; it
 * is stored encrypted, for `u`+`p` and `u`+`t`+`s` sign-ins of Subsonic apps.
 */
export const CreatedAppPassword = z.object({ password: z.string() });
export type CreatedAppPassword = z.infer<typeof CreatedAppPassword>;

/** Whether the user has an app password (never the password itself). */
export const AppPasswordStatus = z.object({ exists: z.boolean() });
export type AppPasswordStatus = z.infer<typeof AppPasswordStatus>;
