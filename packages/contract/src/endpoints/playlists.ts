import { IMAGE_MAX_BYTES } from '../constants.js';
import { PlaylistMessages, ServerMessages } from '../messages.js';
import { endpoint } from './define.js';

const coverFiles = { image: { kind: 'image', maxBytes: IMAGE_MAX_BYTES } } as const;

/** Playlists (DESIGN §4): every route needs a session; the service applies the owner/admin/public rules. */
export const playlists = {
  list: endpoint({
    method: 'GET',
    path: '/api/playlists',
    access: 'session',
    query: 'Paging',
    responses: { 200: 'PlaylistListResponse' },
  }),
  listAll: endpoint({
    method: 'GET',
    path: '/api/playlists/admin',
    access: 'admin',
    query: 'Paging',
    responses: { 200: 'PlaylistListResponse' },
  }),
  ofUser: endpoint({
    method: 'GET',
    path: '/api/playlists/user/:id',
    access: 'owner',
    params: 'IdParam',
    query: 'Paging',
    responses: { 200: 'PlaylistListResponse' },
  }),
  page: endpoint({
    method: 'GET',
    path: '/api/playlists/page',
    access: 'session',
    description: 'Keyset pages of playlists: scope=own (default) or scope=all (administrators).',
    query: 'PlaylistPageQuery',
    responses: { 200: 'PlaylistPage' },
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/playlists/:id',
    access: 'owner',
    params: 'IdParam',
    responses: { 200: 'Playlist' },
  }),
  exportM3u8: endpoint({
    method: 'GET',
    path: '/api/playlists/:playlistId/m3u8',
    access: 'owner',
    params: 'PlaylistIdParam',
    description:
      'The playlist as an M3U8 file (audio/x-mpegurl; charset=utf-8, an attachment): #EXTM3U, then #EXTINF and one ' +
      "line per song: a library song's path relative to its library's folder, a stored song's \"Artist - Title.ext\".",
    responses: { 200: 'binary' },
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/playlists',
    access: 'session',
    description:
      'multipart/form-data (or JSON without the image): name, type, isPublic, songs (JSON array of ids), image.',
    form: { fields: 'PlaylistFormFields', files: coverFiles, json: true },
    responses: { 201: 'Playlist' },
  }),
  update: endpoint({
    method: 'PUT',
    path: '/api/playlists/updatePlaylist/:id',
    access: 'owner',
    params: 'IdParam',
    description: 'The fields of create, all optional (only what is sent changes), plus removeImage=true.',
    form: { fields: 'PlaylistUpdateFields', files: coverFiles, json: true },
    responses: { 200: 'Playlist' },
  }),
  createSmart: endpoint({
    method: 'POST',
    path: '/api/playlists/smart',
    access: 'session',
    description: 'A smart playlist: its songs chosen by its rules (docs/smart-playlists.md); 400 names a bad rule.',
    body: 'SmartPlaylistCreate',
    responses: { 201: 'Playlist' },
  }),
  updateSmart: endpoint({
    method: 'PUT',
    path: '/api/playlists/:id/smart',
    access: 'owner',
    params: 'IdParam',
    description: 'What is sent changes; 409 for a playlist that is not smart.',
    body: 'SmartPlaylistUpdate',
    responses: { 200: 'Playlist' },
  }),
  previewSmart: endpoint({
    method: 'POST',
    path: '/api/playlists/smart/preview',
    access: 'session',
    description: 'What a definition chooses for the caller now; nothing is saved.',
    body: 'SmartPreviewRequest',
    responses: { 200: 'SmartPreview' },
  }),
  reorder: endpoint({
    method: 'PUT',
    path: '/api/playlists/:id/order',
    access: 'owner',
    params: 'IdParam',
    body: 'PlaylistOrderRequest',
    responses: { 200: 'Playlist' },
  }),
  addSong: endpoint({
    method: 'PUT',
    path: '/api/playlists/:playlistId/songs/:songId',
    access: 'owner',
    params: 'PlaylistSongParams',
    responses: { 200: { text: ServerMessages.songAddedToPlaylist } },
  }),
  removeSong: endpoint({
    method: 'DELETE',
    path: '/api/playlists/:playlistId/songs/:songId',
    access: 'owner',
    params: 'PlaylistSongParams',
    responses: { 200: { text: ServerMessages.songRemovedFromPlaylist } },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/playlists/:id',
    access: 'owner',
    params: 'IdParam',
    responses: { 200: { text: PlaylistMessages.playlistDeleted } },
  }),
} as const;
