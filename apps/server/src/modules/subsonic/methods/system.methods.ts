import type { MethodTable } from '../subsonic-method.js';

/** An OpenSubsonic extension this server implements, with the versions of it. */
export interface OpenSubsonicExtension {
  readonly name: string;
  readonly versions: readonly number[];
}

/**
 * The OpenSubsonic extensions this server implements: formPost (POST with a form body), apiKeyAuthentication,
 * songLyrics (getLyricsBySongId), transcodeOffset (stream's timeOffset; only where ffmpeg converts audio, since an
 * original cannot start at a time), playbackReport (reportPlayback, and the playback state in getNowPlaying) and
 * indexBasedQueue (savePlayQueueByIndex, getPlayQueueByIndex: the same queue as the web player's, issue 27),
 * topSongsByArtistId (getTopSongs' `id`) and sonicSimilarity (getSonicSimilarTracks, findSonicPath: issue 28's radio).
 */
export function openSubsonicExtensions(features: { transcoding: boolean }): OpenSubsonicExtension[] {
  return [
    { name: 'formPost', versions: [1] },
    { name: 'apiKeyAuthentication', versions: [1] },
    { name: 'songLyrics', versions: [1] },
    ...(features.transcoding ? [{ name: 'transcodeOffset', versions: [1] }] : []),
    { name: 'playbackReport', versions: [1] },
    { name: 'indexBasedQueue', versions: [1] },
    { name: 'topSongsByArtistId', versions: [1] },
    { name: 'sonicSimilarity', versions: [1] },
  ];
}

/** System: `ping`, `getLicense`, `tokenInfo` (getOpenSubsonicExtensions needs no credentials: the service's). */
export function systemMethods(): MethodTable {
  return {
    ping: { run: () => ({}) },
    getLicense: { run: () => ({ license: { valid: true } }) },
    tokenInfo: { run: ({ caller }) => ({ tokenInfo: { username: caller.user.username } }) },
  };
}

/** The answer of `getOpenSubsonicExtensions`, which apps ask before they sign in. */
export const extensionsAnswer = (extensions: readonly OpenSubsonicExtension[]) => ({
  openSubsonicExtensions: extensions.map((extension) => ({ name: extension.name, versions: [...extension.versions] })),
});
