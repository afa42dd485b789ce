import { parseLyrics, ServerMessages, type LyricsProblem } from '@tonearm/contract';
import { badRequest, notFound, payloadTooLarge, unsupportedMediaType, type HttpError } from '../../http/errors.js';
import { decodeLyricsFile } from '../../media/file-lyrics.js';
import type { SongLyricsRepository, StoredLyrics, TitledLyrics } from './song-lyrics.repository.js';
import type { SongsService, Viewer } from './songs.service.js';

/** Lyrics an administrator sends: pasted text, or a file's bytes (what the song form's field or file carries). */
export type LyricsInput = { text: string; field: string } | { bytes: Uint8Array; field: string };

/** The answer to a text that is not lyrics: 413 too long, 415 not text, 400 otherwise (naming the line), on `field`. */
function refusal(problem: LyricsProblem, field: string): HttpError {
  if (problem.kind === 'tooLarge') return payloadTooLarge(problem.message, field);
  if (problem.kind === 'notText') return unsupportedMediaType(problem.message, field);
  return badRequest(problem.message, field);
}

/**
 * Songs' lyrics (issue 27). Whoever sees a song reads its lyrics (a song of a library hidden from them does not exist:
 * 404); an administrator replaces them with LRC or plain text, read by the contract's parser (lrc.ts) as the files'
 * are, or removes them. What a scan or import reads from files never replaces an administrator's lyrics.
 */
export class SongLyricsService {
  constructor(
    private readonly lyrics: SongLyricsRepository,
    private readonly songs: SongsService,
    /** Told when a song's lyrics were removed: a library song's file is read again at the next scan. */
    private readonly onRemoved: (songId: number) => Promise<void>,
  ) {}

  /** The song's lyrics, or null when it has none; 404 when the viewer does not see the song. */
  async get(viewer: Viewer, songId: number): Promise<StoredLyrics | null> {
    if (!(await this.songs.sees(viewer, songId))) throw notFound(ServerMessages.notFound);
    return this.lyrics.find(songId);
  }

  /** Replaces the song's lyrics; 404 for no song, 400/413/415 for what is not lyrics (nothing is changed then). */
  async save(songId: number, input: LyricsInput): Promise<StoredLyrics> {
    if (!(await this.songs.exists(songId))) throw notFound(ServerMessages.notFound);
    let text: string;
    if ('bytes' in input) {
      const decoded = decodeLyricsFile(input.bytes);
      if ('problem' in decoded) throw refusal(decoded.problem, input.field);
      text = decoded.text;
    } else text = input.text;
    const parsed = parseLyrics(text);
    if (!parsed.ok) throw refusal(parsed.problem, input.field);
    const { synced, lang, offsetMs, lines } = parsed.lyrics;
    const lyrics: StoredLyrics = { source: 'uploaded', synced, lang, offsetMs, lines };
    await this.lyrics.save(songId, lyrics);
    return lyrics;
  }

  /** Removes the song's lyrics (none is not an error); 404 for no song. */
  async remove(songId: number): Promise<void> {
    if (!(await this.songs.exists(songId))) throw notFound(ServerMessages.notFound);
    await this.lyrics.remove(songId);
    await this.onRemoved(songId);
  }

  /** Subsonic's getLyrics: the first song the viewer sees with lyrics, by artist and title (either may be absent). */
  byTitle(viewer: Viewer, query: { artist: string | null; title: string | null }): Promise<TitledLyrics | null> {
    if (query.artist === null && query.title === null) return Promise.resolve(null);
    return this.lyrics.findByTitle(query, viewer.hiddenLibraries);
  }
}
