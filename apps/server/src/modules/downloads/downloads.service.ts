import { mayDownload, ServerMessages } from '@tonearm/contract';
import { seesLibrary } from '../../db/library-visibility.js';
import type { UserRow } from '../../db/schema.js';
import { subjectOf } from '../../http/access.js';
import { forbidden, notFound } from '../../http/errors.js';
import type { MediaSources } from '../../media/media-source.js';
import type { NginxOffload } from '../../media/nginx-offload.js';
import { sendingOf, type BlobSource } from '../../media/send-blob.js';
import { downloadFilename } from './download-filename.js';
import type { DownloadsRepository } from './downloads.repository.js';

/** A song's audio file, ready to be sent as an attachment. */
export interface DownloadFile {
  source: BlobSource;
  key: string;
  size: number;
  mtimeMs: number;
  mime: string;
  /** "Artist - Title.ext", for Content-Disposition. */
  filename: string;
}

/** Offline copies of songs: premium users and administrators only (contract policy `mayDownload`). */
export class DownloadsService {
  constructor(
    private readonly songs: DownloadsRepository,
    /** Where a song's bytes are; null only in tests that do not touch media: nothing can be downloaded then. */
    private readonly sources: MediaSources | null,
    /** MEDIA_OFFLOAD=nginx: the file is then sent by nginx, after the checks here. */
    private readonly offload: NginxOffload | null,
  ) {}

  /** The song's file, to someone who may download; 404 as well for a song of a library hidden from them. */
  async download(user: UserRow & { hiddenLibraries: readonly number[] }, songId: number): Promise<DownloadFile> {
    if (!mayDownload(subjectOf(user))) throw forbidden(ServerMessages.premiumRequired);
    const found = await this.songs.findSong(songId);
    const song = found && seesLibrary(user.hiddenLibraries, found.libraryId) ? found : undefined;
    const source = song && this.sources ? this.sources.audioOf(song) : null;
    const stat = source ? await source.stat() : null;
    if (!song || !source || !stat) throw notFound(ServerMessages.notFound);
    return {
      source: sendingOf(source, this.offload),
      key: song.audioKey,
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      mime: song.mime,
      filename: downloadFilename(song.artistName, song.name, song.audioKey),
    };
  }
}
