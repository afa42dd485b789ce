import { AUDIO_MAX_BYTES, IMAGE_MAX_BYTES } from '../constants.js';
import { ServerMessages } from '../messages.js';
import { endpoint } from './define.js';

const songForm =
  'multipart/form-data: name, genre (one of the catalogue genres), artistId, songFile (MP3, FLAC, OGG/Opus, M4A/AAC ' +
  'or WAV, at most 200 MB), imageFile (JPEG, PNG or WebP, at most 15 MB).';

const songFiles = {
  songFile: { kind: 'audio', maxBytes: AUDIO_MAX_BYTES },
  imageFile: { kind: 'image', maxBytes: IMAGE_MAX_BYTES },
} as const;

/** The catalogue's songs (DESIGN §4 Songs): any signed-in user reads; admins write. */
export const songs = {
  list: endpoint({
    method: 'GET',
    path: '/api/songs',
    access: 'session',
    query: 'SongListQuery',
    responses: { 200: 'SongList' },
  }),
  data: endpoint({
    method: 'GET',
    path: '/api/songs/data',
    access: 'session',
    responses: { 200: 'SongsDataResponse' },
  }),
  page: endpoint({
    method: 'GET',
    path: '/api/songs/page',
    access: 'session',
    description:
      'Keyset pages of the catalogue, one artist or one genre: shuffled by seed (default), newest, or search hits.',
    query: 'SongPageQuery',
    responses: { 200: 'SongPage' },
  }),
  playlistPage: endpoint({
    method: 'GET',
    path: '/api/playlists/:id/songs',
    access: 'owner',
    params: 'IdParam',
    description: "Keyset pages of a playlist's songs in playlist order (its owner, an admin, or anyone when public).",
    query: 'CursorQuery',
    responses: { 200: 'SongPage' },
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/songs/:id',
    access: 'session',
    params: 'IdParam',
    responses: { 200: 'Song' },
  }),
  inPlaylist: endpoint({
    method: 'GET',
    path: '/api/songs/playlistId/:id',
    access: 'owner',
    params: 'IdParam',
    responses: { 200: 'SongList' },
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/songs',
    access: 'admin',
    description: songForm,
    form: { fields: 'SongFormFields', files: songFiles },
    responses: { 201: { text: ServerMessages.songAdded } },
  }),
  update: endpoint({
    method: 'PUT',
    path: '/api/songs/:id',
    access: 'admin',
    params: 'IdParam',
    description: `${songForm} Every file is optional; artistId too (absent keeps the artist).`,
    form: { fields: 'SongEditFields', files: songFiles },
    responses: { 200: { text: ServerMessages.songUpdated } },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/songs/:id',
    access: 'admin',
    params: 'IdParam',
    responses: { 200: { text: ServerMessages.songDeleted } },
  }),
} as const;

/** Likes: each signed-in user likes for themselves; both writes are idempotent. */
export const likes = {
  list: endpoint({
    method: 'GET',
    path: '/api/songs/liked',
    access: 'session',
    query: 'Paging',
    responses: { 200: 'SongList' },
  }),
  page: endpoint({
    method: 'GET',
    path: '/api/songs/liked/page',
    access: 'session',
    description: "Keyset pages of the caller's liked songs, most recently liked first.",
    query: 'CursorQuery',
    responses: { 200: 'SongPage' },
  }),
  like: endpoint({
    method: 'PUT',
    path: '/api/songs/:id/like',
    access: 'session',
    params: 'IdParam',
    responses: { 204: 'empty' },
  }),
  unlike: endpoint({
    method: 'DELETE',
    path: '/api/songs/:id/like',
    access: 'session',
    params: 'IdParam',
    responses: { 204: 'empty' },
  }),
} as const;

/** Offline downloads: the audio file as an attachment, for premium users and admins. */
export const downloads = {
  song: endpoint({
    method: 'GET',
    path: '/api/songs/:id/download',
    access: 'premium',
    params: 'IdParam',
    responses: { 200: 'binary', 206: 'binary', 304: 'binary' },
  }),
} as const;

/** The caller's own play history. */
export const plays = {
  record: endpoint({
    method: 'POST',
    path: '/api/plays',
    access: 'session',
    body: 'PlayRequest',
    responses: { 204: 'empty' },
  }),
  listen: endpoint({
    method: 'POST',
    path: '/api/listens',
    access: 'session',
    body: 'ListenReport',
    description:
      'A web play that counted (half the song or 4 minutes heard); the same play again keeps the most heard.',
    responses: { 204: 'empty' },
  }),
  recent: endpoint({
    method: 'GET',
    path: '/api/plays/recent',
    access: 'session',
    responses: { 200: 'RecentPlaysResponse' },
  }),
} as const;

/** Songs, artists and playlists matching a query. */
export const search = {
  query: endpoint({
    method: 'GET',
    path: '/api/search',
    access: 'session',
    query: 'SearchQuery',
    responses: { 200: 'SearchResponse' },
  }),
} as const;
