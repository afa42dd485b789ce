import { lyricsText, UNKNOWN_ARTIST } from '@tonearm/contract';
import type { SongListRow } from '../../songs/songs.repository.js';
import type { StoredLyrics } from '../../songs/song-lyrics.repository.js';
import { idOfKind } from '../subsonic-ids.js';
import { notFoundError, requiredParam, type MethodTable } from '../subsonic-method.js';
import type { SubsonicParams } from '../subsonic-params.js';
import type { SubsonicDeps } from '../subsonic-deps.js';
import type { SubsonicNode } from '../subsonic.response.js';

/** OpenSubsonic's language when the lyrics name none (`und`, ISO 639's "undetermined"). */
const UNDETERMINED = 'und';

/** A parameter given and not blank, or null. */
function textParam(params: SubsonicParams, name: string): string | null {
  const value = params.get(name)?.trim();
  return value === undefined || value === '' ? null : value;
}

/**
 * OpenSubsonic's `structuredLyrics`: the lines with `start` (ms, as written) when synced, without when not (the spec
 * says it must then be left out); `offset` is LRC's, positive showing the lines sooner, as OpenSubsonic means it.
 */
function structuredLyrics(row: SongListRow, lyrics: StoredLyrics): SubsonicNode {
  return {
    displayArtist: row.display_artist ?? row.artist_name ?? UNKNOWN_ARTIST,
    displayTitle: row.name,
    lang: lyrics.lang ?? UNDETERMINED,
    offset: lyrics.offsetMs,
    synced: lyrics.synced,
    line: lyrics.lines.map((line) =>
      lyrics.synced && line.startMs !== undefined ? { start: line.startMs, value: line.text } : { value: line.text },
    ),
  };
}

/**
 * Lyrics (issue 27): Subsonic's `getLyrics` (by artist and title, the plain text) and OpenSubsonic's `songLyrics`
 * extension, `getLyricsBySongId` (synced and unsynced lines, language, offset), over the songs' lyrics service, so a
 * song hidden from the caller has none here either.
 */
export function lyricsMethods(deps: SubsonicDeps): MethodTable {
  return {
    getLyrics: {
      run: async ({ params, caller }) => {
        const artist = textParam(params, 'artist');
        const title = textParam(params, 'title');
        const found = await deps.lyrics.byTitle(caller.user, { artist, title });
        // Nothing found is no error in Subsonic: an empty text, with what was asked.
        if (found === null) {
          return {
            lyrics: { ...(artist === null ? {} : { artist }), ...(title === null ? {} : { title }), value: '' },
          };
        }
        return {
          lyrics: {
            artist: found.artist ?? UNKNOWN_ARTIST,
            title: found.title,
            value: lyricsText(found.lyrics.lines),
          },
        };
      },
    },
    getLyricsBySongId: {
      run: async ({ params, caller }) => {
        const id = idOfKind(requiredParam(params, 'id'), 'song');
        if (id === null) throw notFoundError('Song');
        const { row } = await deps.songs.get(caller.user, id);
        const lyrics = await deps.lyrics.get(caller.user, id);
        return { lyricsList: { structuredLyrics: lyrics === null ? [] : [structuredLyrics(row, lyrics)] } };
      },
    },
  };
}
