import {
  endpoints,
  fileField,
  maySeePlaylist,
  ServerMessages,
  SongAlbumMessages,
  type Genre,
  type SongListQuery,
} from '@tonearm/contract';
import { isPlaceholderName } from '../../db/album-placeholders.js';
import { isDuplicate } from '../../db/duplicate-error.js';
import { seesLibrary } from '../../db/library-visibility.js';
import type { RoleValue } from '../../db/schema.js';
import { isoNow } from '../../db/timestamps.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import type { BlobReleaser } from '../../maintenance/blob-release.js';
import type { ArtistsRepository } from '../artists/artists.repository.js';
import { commitAll, discardAll, type StagedAudio, type StagedImage } from '../../media/staging.js';
import type { SearchIndexRepository } from '../search-index/search-index.repository.js';
import { searchTerms } from '../search-index/search-terms.js';
import type { CatalogueEntry } from './song-pages.repository.js';
import type { CurrentAlbumPlace, SongAlbumPlace, SongListRow, SongsRepository } from './songs.repository.js';

/** Smart playlists' refresh (playlists/smart-playlists.service.ts), as the songs' readers of playlists need it. */
export interface PlaylistRefresher {
  refresh(playlistIds: readonly number[]): Promise<void>;
}

/** A duplicate song is the upload's audio file: the 409 names that field of the song form. */
const AUDIO_FIELD = fileField(endpoints.songs.create, 'audio');

/** Who is asking: likes and playlist ids in every Song answer are theirs. */
export interface Viewer {
  id: number;
  role: RoleValue;
  /** The libraries whose songs this viewer may not see (library-access.ts): left out everywhere, 404 one by one. */
  hiddenLibraries: readonly number[];
}

/** What the requesting user brings to a Song answer: their likes, their own playlists and their stars (issue 28). */
export interface ViewerMarks {
  liked: ReadonlySet<number>;
  playlists: ReadonlyMap<number, readonly number[]>;
  ratings: ReadonlyMap<number, number>;
}

/** Songs as one viewer sees them: the rows, and that viewer's likes and playlists among them (songs.presenter). */
export interface SongListing {
  rows: SongListRow[];
  marks: ViewerMarks;
}

/** One song as one viewer sees it. */
export interface ViewedSong {
  row: SongListRow;
  marks: ViewerMarks;
}

/** A listing of no songs. */
export const noSongs = (): SongListing => ({
  rows: [],
  marks: { liked: new Set(), playlists: new Map(), ratings: new Map() },
});

/**
 * Issue 12: what the song form says of the song's album and year. Absent (undefined) keeps what the song has (an edit;
 * none when adding), null clears it. `album` names an album of the song's artist, found or created with the song; none
 * (or the placeholder's name) puts the song on its artist's placeholder album (issue 25).
 */
export interface SongAlbumInput {
  album?: string | null | undefined;
  trackNumber?: number | null | undefined;
  discNumber?: number | null | undefined;
  year?: number | null | undefined;
}

export interface NewSongInput extends SongAlbumInput {
  name: string;
  genre: Genre;
  artistId: number | null;
  audio: StagedAudio | null;
  image: StagedImage | null;
}

export interface SongChangesInput extends SongAlbumInput {
  name: string;
  genre: Genre;
  /** Absent: keep the current artist. */
  artistId?: number;
  audio: StagedAudio | null;
  image: StagedImage | null;
}

/** A `q` on the song list matches through the search index; at most this many hits are considered. */
export const SONG_QUERY_MAX_HITS = 500;

/** The songs columns that describe a staged audio file. */
export function audioColumns(audio: StagedAudio) {
  return {
    audio_key: audio.key,
    audio_sha256: audio.sha256,
    mime: audio.mime,
    size_bytes: audio.size,
    duration_ms: audio.durationMs,
  };
}

/** Told of each committed change this service makes (the song pages' in-memory catalogue, catalogue-index.ts). */
export interface CatalogueChanges {
  songSaved(entry: CatalogueEntry): void;
  songRemoved(id: number): void;
}

/** Runs `work`, and discards the staged media when it fails (after a commit, discarding is a no-op). */
async function discardingOnFailure<T>(media: (StagedAudio | StagedImage | null)[], work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await discardAll(media);
    throw error;
  }
}

/** Another writer added the same audio between the check and the write: the same 409 the check gives. */
export function songExistsOnRace(error: unknown): never {
  if (isDuplicate(error, 'audio')) throw conflict(ServerMessages.songExists, AUDIO_FIELD);
  throw error;
}

/** A track or disc number needs an album of its own to be on: a 400 naming the field that has one. */
function assertNumbersHaveAlbum(input: SongAlbumInput, onAlbum: boolean): void {
  if (onAlbum) return;
  for (const field of ['trackNumber', 'discNumber'] as const) {
    if (input[field] !== undefined && input[field] !== null) throw badRequest(SongAlbumMessages.albumForTrack, field);
  }
}

/** The album the form names, unless it names none (null, or the placeholder's name). */
function namedAlbum(input: SongAlbumInput): string | null {
  return typeof input.album === 'string' && !isPlaceholderName(input.album) ? input.album : null;
}

/** Whether the song will be on an album of its own (not a placeholder) once the form is saved. */
function onAlbumOfItsOwn(input: SongAlbumInput, current: CurrentAlbumPlace | undefined): boolean {
  if (input.album !== undefined) return namedAlbum(input) !== null;
  return current !== undefined && !current.placeholder;
}

/**
 * Where the form puts the song, from where it is now (`current`; undefined when adding): undefined leaves it there.
 * Every song is on an album (issue 25): one the form names, else its artist's placeholder, which it follows when its
 * artist changes. Numbers not sent stay as they were; a placeholder has none.
 */
async function albumPlaceOf(
  songs: SongsRepository,
  input: SongAlbumInput,
  artistId: number | null,
  current: CurrentAlbumPlace | undefined,
): Promise<SongAlbumPlace | undefined> {
  const numbers = {
    disc_number: input.discNumber === undefined ? (current?.disc_number ?? null) : input.discNumber,
    track_number: input.trackNumber === undefined ? (current?.track_number ?? null) : input.trackNumber,
  };
  const name = namedAlbum(input);
  if (name !== null) {
    const albumId = await songs.findOrCreateAlbum({ name, artist_id: artistId, year: input.year ?? null });
    return { album_id: albumId, ...numbers };
  }
  const placeholder = async () => ({
    album_id: await songs.placeholderAlbumId(artistId),
    disc_number: null,
    track_number: null,
  });
  // Taken off its album, or never on one: its artist's placeholder.
  if (input.album !== undefined || current === undefined) return placeholder();
  if (current.placeholder) return current.album_artist_id === artistId ? undefined : placeholder();
  const changed = input.discNumber !== undefined || input.trackNumber !== undefined;
  return changed ? { album_id: current.album_id, ...numbers } : undefined;
}

/**
 * The song catalogue: listing with the viewer's likes and playlists (one query each, merged, never per song), and the
 * admin writes through the upload pipeline (DESIGN §6): staged blobs are committed inside the transaction that writes
 * the row, so a failure leaves neither; blobs a change stops using are released once no row references them.
 */
export class SongsService {
  constructor(
    private readonly songs: SongsRepository,
    private readonly artists: ArtistsRepository,
    private readonly search: SearchIndexRepository,
    private readonly releaseBlobs: BlobReleaser,
    private readonly catalogue: CatalogueChanges,
  ) {}

  /** Chooses a smart playlist's songs anew (when due) before they are read (issue 28); set by the composition root. */
  private smartPlaylists: PlaylistRefresher | null = null;

  refreshPlaylistsWith(refresher: PlaylistRefresher): void {
    this.smartPlaylists = refresher;
  }

  async list(viewer: Viewer, query: SongListQuery = {}): Promise<SongListing> {
    const { q, genre, artistId, limit, offset } = query;
    if (q === undefined || q === '')
      return this.withMarks(
        viewer,
        await this.songs.list({ genre, artistId, limit, offset, hidden: viewer.hiddenLibraries }),
      );

    const terms = searchTerms(q);
    if (terms.length === 0) return noSongs();
    const ranked = await this.search.songIds(terms, SONG_QUERY_MAX_HITS);
    const rows = await this.songs.list({ ids: ranked, genre, artistId, hidden: viewer.hiddenLibraries });
    const rank = new Map(ranked.map((id, index) => [id, index]));
    rows.sort((a, b) => (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0));
    const start = offset ?? 0;
    return this.withMarks(viewer, rows.slice(start, limit === undefined ? undefined : start + limit));
  }

  async get(viewer: Viewer, id: number): Promise<ViewedSong> {
    const row = await this.songs.findListRow(id);
    // A song of a library hidden from the viewer does not exist for them: the same 404.
    if (row === undefined || !seesLibrary(viewer.hiddenLibraries, row.library_id)) {
      throw notFound(ServerMessages.notFound);
    }
    const { marks } = await this.withMarks(viewer, [row]);
    return { row, marks };
  }

  /** Songs in these ids' order (search hits); unknown ids are skipped. */
  async listByIds(viewer: Viewer, ids: readonly number[]): Promise<SongListing> {
    return this.withMarks(viewer, await this.songs.byIds(ids));
  }

  /** listByIds without the songs whose library file is missing (search hits, random picks: lists they leave). */
  async listPresentByIds(viewer: Viewer, ids: readonly number[]): Promise<SongListing> {
    const rows = await this.songs.byIds(ids);
    return this.withMarks(
      viewer,
      rows.filter((row) => row.missing_since === null),
    );
  }

  /** A playlist's songs in playlist order, when the policy lets the viewer see the playlist. */
  async listInPlaylist(viewer: Viewer, playlistId: number): Promise<SongListing> {
    await this.assertSeesPlaylist(viewer, playlistId);
    return this.withMarks(viewer, await this.songs.listInPlaylist(playlistId));
  }

  /** 404 unless the playlist exists and the policy lets the viewer see it. */
  async assertSeesPlaylist(viewer: Viewer, playlistId: number): Promise<void> {
    const playlist = await this.songs.findPlaylistAccess(playlistId);
    if (playlist === undefined) throw notFound(ServerMessages.notFound);
    // A playlist the viewer may not see does not exist for them: the same 404 as a missing one.
    if (!maySeePlaylist(viewer, { ownerId: playlist.owner_id, isPublic: playlist.is_public === 1 })) {
      throw notFound(ServerMessages.notFound);
    }
    if (playlist.smart) await this.smartPlaylists?.refresh([playlistId]);
  }

  async listLiked(viewer: Viewer, limit?: number, offset?: number): Promise<SongListing> {
    return this.withMarks(viewer, await this.songs.listLikedBy(viewer.id, viewer.hiddenLibraries, limit, offset));
  }

  async exists(id: number): Promise<boolean> {
    return (await this.songs.find(id)) !== undefined;
  }

  /** Whether the song exists and is not in a library hidden from the viewer. */
  async sees(viewer: Viewer, id: number): Promise<boolean> {
    const song = await this.songs.find(id);
    return song !== undefined && seesLibrary(viewer.hiddenLibraries, song.library_id ?? null);
  }

  /** Whether audio with this sha256 (hex) is already in the catalogue. */
  async hasAudio(sha256: string): Promise<boolean> {
    return (await this.songs.findByAudioHash(sha256)) !== undefined;
  }

  /** Adds a song from staged media; the staged media is committed with the row or discarded. Answers the new id. */
  async add(input: NewSongInput): Promise<number> {
    const { audio, image } = input;
    return discardingOnFailure([audio, image], async () => {
      if (audio === null || image === null) throw badRequest(ServerMessages.uploadBothFiles);
      assertNumbersHaveAlbum(input, onAlbumOfItsOwn(input, undefined));
      if (input.artistId !== null) await this.assertArtistExists(input.artistId);
      if ((await this.songs.findByAudioHash(audio.sha256)) !== undefined) {
        throw conflict(ServerMessages.songExists, AUDIO_FIELD);
      }
      try {
        const id = await this.songs.inTransaction(async (songs) => {
          const inserted = await songs.insert({
            name: input.name,
            genre: input.genre,
            artist_id: input.artistId,
            ...audioColumns(audio),
            image_key: image.originalKey,
            created_at: isoNow(),
            year: input.year ?? null,
          });
          const place = await albumPlaceOf(songs, input, input.artistId, undefined);
          if (place !== undefined) await songs.setAlbumPlace(inserted, place);
          await songs.recordFileLyrics(inserted, audio.lyrics, false);
          await commitAll([audio, image]);
          return inserted;
        });
        this.catalogue.songSaved({ id, artist_id: input.artistId, genre: input.genre });
        return id;
      } catch (error) {
        songExistsOnRace(error);
      }
    });
  }

  /** Edits a song; new files replace the old ones, whose blobs go once nothing references them. */
  async update(id: number, input: SongChangesInput): Promise<void> {
    const { audio, image } = input;
    const previous = await discardingOnFailure([audio, image], async () => {
      const current = await this.songs.find(id);
      if (current === undefined) throw notFound(ServerMessages.notFound);
      if (input.artistId !== undefined) await this.assertArtistExists(input.artistId);
      const currentPlace = await this.songs.albumPlace(id);
      assertNumbersHaveAlbum(input, onAlbumOfItsOwn(input, currentPlace));
      if (audio !== null) {
        const same = await this.songs.findByAudioHash(audio.sha256);
        if (same !== undefined && same.id !== id) throw conflict(ServerMessages.songExists, AUDIO_FIELD);
      }
      try {
        const covers = await this.songs.inTransaction(async (songs) => {
          await songs.update(id, {
            name: input.name,
            genre: input.genre,
            ...(input.artistId === undefined ? {} : { artist_id: input.artistId }),
            ...(audio === null ? {} : audioColumns(audio)),
            ...(image === null ? {} : { image_key: image.originalKey }),
            ...(input.year === undefined ? {} : { year: input.year }),
          });
          const artistId = input.artistId ?? current.artist_id;
          const place = await albumPlaceOf(songs, input, artistId, currentPlace);
          let left: (string | null)[] = [];
          if (place !== undefined) {
            await songs.setAlbumPlace(id, place);
            // The placeholder it left goes once no song is on it.
            if (currentPlace !== undefined && currentPlace.album_id !== place.album_id) {
              left = await songs.deleteEmptyPlaceholders([currentPlace.album_id]);
            }
          }
          // A new audio file brings its own lyrics (or none) in place of the old file's.
          if (audio !== null) await songs.recordFileLyrics(id, audio.lyrics, true);
          await commitAll([audio, image]);
          return left;
        });
        this.catalogue.songSaved({ id, artist_id: input.artistId ?? current.artist_id, genre: input.genre });
        return { current, covers };
      } catch (error) {
        songExistsOnRace(error);
      }
    });
    await this.releaseBlobs({
      audio: audio !== null && audio.key !== previous.current.audio_key ? [previous.current.audio_key] : [],
      image: [
        ...(image !== null && image.originalKey !== previous.current.image_key ? [previous.current.image_key] : []),
        ...previous.covers,
      ],
    });
  }

  /** Deletes a song; its artist's placeholder album goes with it when it was the last song there. */
  async remove(id: number): Promise<void> {
    const removed = await this.songs.inTransaction(async (songs) => {
      const current = await songs.find(id);
      if (current === undefined) return undefined;
      const albumId = await songs.albumIdOf(id);
      if (!(await songs.delete(id))) return undefined;
      const covers = albumId === undefined ? [] : await songs.deleteEmptyPlaceholders([albumId]);
      return { current, covers };
    });
    if (removed === undefined) throw notFound(ServerMessages.notFound);
    this.catalogue.songRemoved(id);
    await this.releaseBlobs({
      audio: [removed.current.audio_key],
      image: [removed.current.image_key, ...removed.covers],
    });
  }

  private async assertArtistExists(artistId: number): Promise<void> {
    if ((await this.artists.find(artistId)) === undefined) throw badRequest(ServerMessages.artistNotFound, 'artistId');
  }

  /**
   * The rows with the viewer's likes, own playlists and stars among them, fetched in one query each. Every song answer passes
   * here: a row of a library hidden from the viewer is left out (the lists' own queries leave them out already).
   */
  async withMarks(viewer: Viewer, given: SongListRow[]): Promise<SongListing> {
    const hidden = viewer.hiddenLibraries;
    const rows = hidden.length === 0 ? given : given.filter((row) => seesLibrary(hidden, row.library_id));
    if (rows.length === 0) return noSongs();
    const ids = rows.map((row) => row.id);
    const [liked, playlists, ratings] = await Promise.all([
      this.songs.likedIds(viewer.id, ids),
      this.songs.ownPlaylistIds(viewer.id, ids),
      this.songs.ratingsOf(viewer.id, ids),
    ]);
    return { rows, marks: { liked, playlists, ratings } };
  }
}
