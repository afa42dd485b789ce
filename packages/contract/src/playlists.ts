import { z } from 'zod';
import { textField } from './text.js';
import { CursorQuery, DbId, DbIdText, pageOf } from './common.js';
import { NAME_MAX, PLAYLIST_TYPE_MAX } from './constants.js';
import { SmartDefinition, SmartDefinitionJson } from './smart-playlists.js';

/** Where a playlist read from a library's `.m3u`/`.m3u8` file comes from. */
export const PlaylistSource = z.object({
  libraryId: z.number().int(),
  /** The file's path relative to the library's folder, `/` between parts. */
  path: z.string(),
});
export type PlaylistSource = z.infer<typeof PlaylistSource>;

/**
 * Playlist JSON of DESIGN §4; songIds are in playlist order. Added by issue 25: `readOnly` (true for a playlist that
 * follows a file of a library: every edit is refused, change the file instead) and `source` (that file; else null).
 */
export const Playlist = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.string(),
  isPublic: z.boolean(),
  imgLink: z.string().nullable(),
  userId: z.number().int(),
  songIds: z.array(z.number().int()),
  readOnly: z.boolean(),
  source: PlaylistSource.nullable(),
  /**
   * Issue 28: a smart playlist's rules (its songs are chosen by them and cannot be added, removed or reordered by
   * hand); null for any other playlist.
   */
  smart: SmartDefinitionJson.nullable(),
});
export type Playlist = z.infer<typeof Playlist>;

const BooleanField = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/** Multipart fields of create/update; `songs` is a JSON array of song ids. */
export const PlaylistFormFields = z.object({
  name: textField().trim().min(1, 'Name is required').max(NAME_MAX),
  type: textField().trim().max(PLAYLIST_TYPE_MAX, `Type must be at most ${PLAYLIST_TYPE_MAX} characters`).default(''),
  isPublic: BooleanField.default(false),
  songs: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') return [];
      try {
        const parsed = z.array(DbId).parse(JSON.parse(raw));
        return [...new Set(parsed)];
      } catch {
        ctx.addIssue({ code: 'custom', message: 'songs must be a JSON array of song ids' });
        return z.NEVER;
      }
    }),
});
export type PlaylistFormFields = z.infer<typeof PlaylistFormFields>;

export const PlaylistOrderRequest = z.object({ songIds: z.array(DbId) });
export type PlaylistOrderRequest = z.infer<typeof PlaylistOrderRequest>;

/**
 * Fields of PUT /api/playlists/updatePlaylist/{id} (multipart, or JSON without the image): only what is sent changes.
 * `songs`, when sent, replaces the whole list in the given order; `removeImage=true` drops the cover.
 */
export const PlaylistUpdateFields = z.object({
  name: PlaylistFormFields.shape.name.optional(),
  type: textField().trim().max(PLAYLIST_TYPE_MAX, `Type must be at most ${PLAYLIST_TYPE_MAX} characters`).optional(),
  isPublic: BooleanField.optional(),
  songs: PlaylistFormFields.shape.songs.optional(),
  removeImage: BooleanField.optional(),
});
export type PlaylistUpdateFields = z.infer<typeof PlaylistUpdateFields>;
export const PlaylistListResponse = z.array(Playlist);

/** `/api/playlists/{playlistId}/m3u8`. */
export const PlaylistIdParam = z.object({ playlistId: DbIdText });
export type PlaylistIdParam = z.infer<typeof PlaylistIdParam>;

/** The content type of an exported playlist (M3U8: UTF-8 M3U). */
export const M3U8_CONTENT_TYPE = 'audio/x-mpegurl; charset=utf-8';

/** `/api/playlists/{playlistId}/songs/{songId}`. */
export const PlaylistSongParams = z.object({ playlistId: DbIdText, songId: DbIdText });

/**
 * GET /api/playlists/page: `scope=own` (the default) pages the caller's own playlists, newest first; `scope=all`
 * every playlist (administrators only, 403 otherwise); `q` narrows by name.
 */
export const PlaylistPageQuery = CursorQuery.extend({
  scope: z.enum(['own', 'all']).optional(),
  q: textField().trim().max(200).optional(),
});
export type PlaylistPageQuery = z.infer<typeof PlaylistPageQuery>;

export const PlaylistPage = pageOf(Playlist);
export type PlaylistPage = z.infer<typeof PlaylistPage>;

/** POST /api/playlists/smart (JSON): a new smart playlist; its songs are chosen by `definition`. */
export const SmartPlaylistCreate = z.object({
  name: PlaylistFormFields.shape.name,
  type: PlaylistFormFields.shape.type,
  isPublic: z.boolean().default(false),
  definition: SmartDefinition,
});
export type SmartPlaylistCreate = z.infer<typeof SmartPlaylistCreate>;

/** PUT /api/playlists/{id}/smart (JSON): only what is sent changes; a new definition chooses the songs anew. */
export const SmartPlaylistUpdate = z.object({
  name: PlaylistFormFields.shape.name.optional(),
  type: PlaylistUpdateFields.shape.type,
  isPublic: z.boolean().optional(),
  definition: SmartDefinition.optional(),
});
export type SmartPlaylistUpdate = z.infer<typeof SmartPlaylistUpdate>;

/** POST /api/playlists/smart/preview: what a definition would choose for the caller now. */
export const SmartPreviewRequest = z.object({ definition: SmartDefinition });
export type SmartPreviewRequest = z.infer<typeof SmartPreviewRequest>;

/** The preview: how many songs, their total length, and the first few (ids, in the playlist's order). */
export const SmartPreview = z.object({
  count: z.number().int(),
  durationMs: z.number().int(),
  firstSongIds: z.array(z.number().int()),
});
export type SmartPreview = z.infer<typeof SmartPreview>;
/** How many of the chosen songs the preview lists. */
export const SMART_PREVIEW_SONGS = 10;
