import type { MethodTable } from '../subsonic-method.js';

/** The OpenSubsonic extensions this server implements, with their versions. */
export const OPEN_SUBSONIC_EXTENSIONS = [
  { name: 'formPost', versions: [1] },
  { name: 'apiKeyAuthentication', versions: [1] },
  { name: 'songLyrics', versions: [1] },
] as const;

/** System: `ping`, `getLicense`, `tokenInfo` (getOpenSubsonicExtensions needs no credentials: the service's). */
export function systemMethods(): MethodTable {
  return {
    ping: { run: () => ({}) },
    getLicense: { run: () => ({ license: { valid: true } }) },
    tokenInfo: { run: ({ caller }) => ({ tokenInfo: { username: caller.user.username } }) },
  };
}

/** The answer of `getOpenSubsonicExtensions`, which apps ask before they sign in. */
export const extensionsAnswer = () => ({
  openSubsonicExtensions: OPEN_SUBSONIC_EXTENSIONS.map((extension) => ({
    name: extension.name,
    versions: [...extension.versions],
  })),
});
