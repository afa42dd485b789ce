import type { Genre } from '@tonearm/contract';
import { isoNow } from '../../db/timestamps.js';
import type { BlobReleaser } from '../../maintenance/blob-release.js';
import type { FileLyrics } from '../../media/file-lyrics.js';
import { commitAll, discardAll, type StagedAudio, type StagedImage } from '../../media/staging.js';
import type { CatalogueChanges } from './songs.service.js';
import { audioColumns, songExistsOnRace } from './songs.service.js';
import type {
  ImportedAlbumPlace,
  ImportSourceRow,
  NewSongByArtistName,
  SongCredit,
  SongsRepository,
} from './songs.repository.js';

/** What a file's tags and stream say beyond name, genre and artist (null: unknown). */
export interface ImportedDetails {
  year: number | null;
  bitrateKbps: number | null;
  sampleRateHz: number | null;
  /** The codec in the container: mp3, flac, vorbis, opus, aac, alac, wav. */
  format: string | null;
  /** The genre tag's own text. */
  genreTag: string | null;
  replayGain: ReplayGain;
  /** The album and where on it; null (or the placeholder's name): the artist's placeholder album (issue 25). */
  album: Omit<ImportedAlbumPlace, 'image_key'> | null;
  /** Whether `image` is the file's own artwork (embedded, or the folder's cover), which then also covers the album. */
  coverIsArtwork: boolean;
  /** The people and ids the tags name (modules/libraries/tag-credits.ts); none when absent. */
  people?: ImportedPeople;
  /** The lyrics of the file (its tags, or the lyrics file beside it); null: none. Absent: left as they are. */
  lyrics?: FileLyrics | null;
}

/** A file's credits beyond its main artist, and its own MusicBrainz ids and dates. */
export interface ImportedPeople {
  credits: SongCredit[];
  artistMbIds: { name: string; mb_artist_id: string }[];
  columns: {
    display_artist: string | null;
    mb_recording_id: string | null;
    mb_track_id: string | null;
    original_date: string | null;
  };
}

export interface ReplayGain {
  trackDb: number | null;
  trackPeak: number | null;
  albumDb: number | null;
  albumPeak: number | null;
}

/** A song of a batch (the import): its media staged and checked, its artist named. */
export interface BatchSongInput {
  name: string;
  genre: Genre;
  /** Found or created with the batch; null: "Unknown artist". */
  artistName: string | null;
  audio: StagedAudio;
  image: StagedImage;
  details?: ImportedDetails;
  /** The file it came from; recorded so that a re-run and `--watch` know it. */
  source?: ImportSourceRow;
}

/** The row an imported song is written as, with its album and source. */
function rowOf(input: BatchSongInput): Omit<NewSongByArtistName, 'created_at'> {
  const { name, genre, artistName, audio, image, details, source } = input;
  return {
    name,
    genre,
    artist_name: artistName,
    ...audioColumns(audio),
    image_key: image.originalKey,
    ...(details === undefined ? {} : detailColumns(details, image)),
    source: source ?? null,
  };
}

function detailColumns(details: ImportedDetails, image: StagedImage) {
  const { album } = details;
  return {
    year: details.year,
    bitrate_kbps: details.bitrateKbps,
    sample_rate_hz: details.sampleRateHz,
    format: details.format,
    genre_tag: details.genreTag,
    replay_gain_track_db: details.replayGain.trackDb,
    replay_gain_track_peak: details.replayGain.trackPeak,
    replay_gain_album_db: details.replayGain.albumDb,
    replay_gain_album_peak: details.replayGain.albumPeak,
    album: album === null ? null : { ...album, image_key: details.coverIsArtwork ? image.originalKey : null },
    ...(details.people === undefined
      ? {}
      : { ...details.people.columns, credits: details.people.credits, artist_mb_ids: details.people.artistMbIds }),
    ...(details.lyrics === undefined ? {} : { lyrics: details.lyrics }),
  };
}

/**
 * The import's writes (cli/import-folder.ts): songs in batches with the artists and albums their tags name, a changed
 * file's song changed in place, a removed file's song deleted. Staged blobs are committed inside the transaction that
 * writes the rows, so a failure leaves neither; blobs nothing references any more are released.
 */
export class SongImportService {
  constructor(
    private readonly songs: SongsRepository,
    private readonly releaseBlobs: BlobReleaser,
    private readonly catalogue: CatalogueChanges,
  ) {}

  /**
   * Adds songs in one transaction: the artists and albums they name are found or created in it, the rows are
   * inserted, and the staged media is committed last. All or nothing: when it throws (a row the database refuses, such
   * as audio another writer added meanwhile, or a blob that cannot be committed), no row of the batch was written,
   * every staged blob is discarded, and the blobs it had already committed are released (unless a row uses them);
   * audio already in the catalogue is the 409 `add` answers. The caller may then write the songs one by one, to find
   * the one at fault.
   */
  async addBatch(inputs: readonly BatchSongInput[]): Promise<void> {
    const media = inputs.flatMap((input) => [input.audio, input.image]);
    // Set inside the transaction once blobs start becoming visible: from then on a failure has some to release.
    const progress = { committing: false };
    try {
      await this.songs.inTransaction(async (songs) => {
        const createdAt = isoNow();
        await songs.insertByArtistName(inputs.map((input) => ({ ...rowOf(input), created_at: createdAt })));
        progress.committing = true;
        await commitAll(media);
      });
    } catch (error) {
      await discardAll(media);
      if (progress.committing) {
        await this.releaseBlobs({
          audio: inputs.map((input) => input.audio.key),
          image: inputs.map((input) => input.image.originalKey),
        });
      }
      songExistsOnRace(error);
    }
  }

  /** The imported file at `path` and its song, if an import added it. */
  findSource(path: string) {
    return this.songs.findSource(path);
  }

  /** Records the file a song came from as it is now (a touched file whose audio did not change). */
  recordSource(songId: number, source: ImportSourceRow): Promise<void> {
    return this.songs.recordSource(songId, source);
  }

  /** Every imported file under `folder`. */
  listSources(folder: string) {
    return this.songs.listSources(folder);
  }

  /**
   * Changes the song a file became to what the changed file says (`--watch`): the same song id, so likes and
   * playlists keep it. The old media is released once nothing references it; an album left without songs goes.
   */
  async replace(songId: number, input: BatchSongInput): Promise<void> {
    const media = [input.audio, input.image];
    const progress = { committing: false };
    try {
      const previous = await this.songs.inTransaction(async (songs) => {
        const current = await songs.find(songId);
        if (current === undefined) return undefined;
        const albumId = await songs.albumIdOf(songId);
        await songs.replaceImported(songId, rowOf(input));
        const covers = albumId === undefined ? [] : await songs.deleteEmptyAlbums([albumId]);
        const artistId = (await songs.find(songId))?.artist_id ?? null;
        // Last, so that nothing after it can roll the rows back with the new blobs already visible.
        progress.committing = true;
        await commitAll(media);
        return { current, artistId, covers };
      });
      if (previous === undefined) {
        await discardAll(media);
        return;
      }
      const { current, artistId, covers } = previous;
      this.catalogue.songSaved({ id: songId, artist_id: artistId, genre: input.genre });
      await this.releaseBlobs({ audio: [current.audio_key], image: [current.image_key, ...covers] });
    } catch (error) {
      await discardAll(media);
      // A commit that failed part way made some blobs visible: released unless a row uses them.
      if (progress.committing) await this.releaseBlobs({ audio: [input.audio.key], image: [input.image.originalKey] });
      songExistsOnRace(error);
    }
  }

  /** Deletes the song a removed file had become (`--watch`), and its album when no song is left on it. */
  async removeSong(songId: number): Promise<void> {
    const removed = await this.songs.inTransaction(async (songs) => {
      const current = await songs.find(songId);
      if (current === undefined) return undefined;
      const albumId = await songs.albumIdOf(songId);
      await songs.delete(songId);
      const covers = albumId === undefined ? [] : await songs.deleteEmptyAlbums([albumId]);
      return { current, covers };
    });
    if (removed === undefined) return;
    this.catalogue.songRemoved(songId);
    await this.releaseBlobs({
      audio: [removed.current.audio_key],
      image: [removed.current.image_key, ...removed.covers],
    });
  }
}
