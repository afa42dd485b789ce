import { LYRICS_MAX_BYTES } from '../constants.js';
import { endpoint } from './define.js';

/**
 * A song's lyrics (issue 27): read at scan, import and upload from the audio file's tags and the `.lrc`/`.txt` file
 * beside it; any signed-in user who sees the song reads them; an administrator replaces or removes them.
 */
export const lyrics = {
  get: endpoint({
    method: 'GET',
    path: '/api/songs/:id/lyrics',
    access: 'session',
    params: 'IdParam',
    description: 'The song’s lyrics, synced (LRC) or plain; `lyrics` is null when the song has none.',
    responses: { 200: 'SongLyricsAnswer' },
  }),
  put: endpoint({
    method: 'PUT',
    path: '/api/songs/:id/lyrics',
    access: 'admin',
    params: 'IdParam',
    description:
      'Replaces the song’s lyrics with LRC or plain text: `text` (JSON or a form field) or a `lyricsFile` ' +
      `(multipart, at most ${LYRICS_MAX_BYTES / 1024} KB, UTF-8 or UTF-16 with a byte order mark). ` +
      'Bad LRC is a 400 naming the line. Lyrics saved here are kept when the file is scanned again.',
    form: {
      fields: 'LyricsFormFields',
      files: { lyricsFile: { kind: 'text', maxBytes: LYRICS_MAX_BYTES } },
      json: true,
    },
    responses: { 200: 'SongLyricsAnswer' },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/songs/:id/lyrics',
    access: 'admin',
    params: 'IdParam',
    description:
      'Removes the song’s lyrics. A song of a library gets its file’s own lyrics (tags or the file beside it) back ' +
      'at the next scan of its folder.',
    responses: { 204: 'empty' },
  }),
} as const;
