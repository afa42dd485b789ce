import type { Song } from '@tonearm/contract';
import { forgetDownloadedSong, storeDownloadedSong } from '../../lib/downloaded-songs.js';
import { cacheAudio, forgetCachedAudio } from '../../lib/offline-audio.js';
import { downloadSongAudio } from '../songs/songs.api.js';

/** Fetches the audio (premium or admin), keeps it for offline play and lists the song as downloaded. */
export async function downloadSong(song: Song): Promise<void> {
  const audio = await downloadSongAudio(song.id);
  await cacheAudio(song.link, audio);
  storeDownloadedSong(song);
}

export async function removeDownload(song: Song): Promise<void> {
  forgetDownloadedSong(song.id);
  await forgetCachedAudio(song.link);
}
