import { isImageUrl, type Song } from '@tonearm/contract';
import { ApiError, NetworkError } from '../../lib/api-client.js';
import { downloadsOwner, forgetDownloadedSong, storeDownloadedSong } from '../../lib/downloaded-songs.js';
import { imageUrl } from '../../lib/images.js';
import { fetchIntoCache, removeFromCache, type DownloadTarget } from '../../lib/offline-audio.js';
import { isDownloadReply, type WorkerRequest } from '../../lib/sw-messages.js';

/** The cover size the Downloaded page draws, kept with the audio so the list looks right offline. */
export const DOWNLOAD_COVER_WIDTH = 64;

export function downloadTargetOf(song: Song): DownloadTarget {
  const cover = isImageUrl(song.imgLink) ? imageUrl(song.imgLink, DOWNLOAD_COVER_WIDTH) : null;
  return { songId: song.id, link: song.link, cover };
}

function controllingWorker(): ServiceWorker | null {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator ? navigator.serviceWorker.controller : null;
}

/** Asks the service worker to download; its reply arrives on a MessageChannel port. */
function downloadThroughWorker(worker: ServiceWorker, target: DownloadTarget, userId: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event: MessageEvent<unknown>) => {
      channel.port1.close();
      const reply = event.data;
      if (!isDownloadReply(reply)) reject(new Error('The service worker sent an unexpected reply'));
      else if (reply.ok) resolve(reply.size);
      else if (reply.status === 0) reject(new NetworkError(reply.message));
      else reject(new ApiError(reply.status, reply.code, reply.message));
    };
    const request: WorkerRequest = { type: 'download', userId, ...target };
    worker.postMessage(request, [channel.port2]);
  });
}

/** Tells the active worker (controlling this page or not yet) that the download cache changed behind its back. */
function notifyWorker(request: WorkerRequest): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  void navigator.serviceWorker.getRegistration().then((registration) => {
    registration?.active?.postMessage(request);
  });
}

/** Downloads are the signed-in user's (AuthProvider makes them active at login). */
function signedInOwner(): number {
  const owner = downloadsOwner();
  if (owner === null) throw new Error('Log in to download songs');
  return owner;
}

/**
 * Fetches the audio from the download endpoint (premium or admin) into Cache Storage, through the service worker when
 * one controls the page, and lists the song as downloaded. Resolves with the stored size in bytes.
 */
export async function downloadSong(song: Song): Promise<number> {
  const target = downloadTargetOf(song);
  const userId = signedInOwner();
  const worker = controllingWorker();
  let size: number;
  if (worker) {
    size = await downloadThroughWorker(worker, target, userId);
  } else {
    size = await fetchIntoCache(target, userId);
    notifyWorker({ type: 'downloads-changed' });
  }
  storeDownloadedSong(song);
  return size;
}

/** SPEC §4: removal is by id; the stored audio (and cover) go with it. */
export async function removeDownload(song: Song): Promise<void> {
  const userId = downloadsOwner();
  forgetDownloadedSong(song.id);
  if (userId !== null) await removeFromCache(downloadTargetOf(song), userId);
  notifyWorker({ type: 'downloads-changed' });
}
