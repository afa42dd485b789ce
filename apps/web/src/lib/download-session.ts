import { activateDownloads, parkDownloads } from './downloaded-songs.js';
import { settleLegacyAudio } from './offline-audio.js';
import type { WorkerRequest } from './sw-messages.js';

/**
 * Tells the service worker (once one is active) who is signed in; it keeps that across restarts. Through `ready`, so
 * a message sent while the worker installs on the first visit is not lost.
 */
export function tellWorker(request: WorkerRequest): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  void navigator.serviceWorker.ready.then((registration) => {
    registration.active?.postMessage(request);
  });
}

/**
 * `userId` signed in on this browser: their downloaded list becomes `downloadedSong` and the worker answers offline
 * audio from their cache only. `adoptUnowned` (start-up with a stored user) keeps downloads made before they were
 * kept per user for this user.
 */
export function downloadsSignedIn(userId: number, options: { adoptUnowned?: boolean } = {}): void {
  const adopted = activateDownloads(userId, options);
  tellWorker({ type: 'signed-in-user', userId });
  void settleLegacyAudio(adopted ? userId : null).then(
    () => {
      if (adopted) tellWorker({ type: 'downloads-changed' });
    },
    () => undefined,
  );
}

/** Nobody is signed in: the list is put aside for its owner and the worker serves no downloaded audio. */
export function downloadsSignedOut(): void {
  parkDownloads();
  tellWorker({ type: 'signed-in-user', userId: null });
  void settleLegacyAudio(null).catch(() => undefined);
}
