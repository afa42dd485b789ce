import type { Role } from './users.js';

/**
 * The access policy (issue 9): the one place where "who may see or change what" is written. The server's route
 * guard, its services and its search SQL, and the web app all decide through these predicates.
 *
 * Every route declares one level:
 * - `public`: anyone, signed in or not;
 * - `session`: any signed-in user;
 * - `owner`: a signed-in user, and the service lets only the resource's owner (or an admin) through; to anyone else
 *   a resource they may not see does not exist (404, exactly like a missing one);
 * - `premium`: a signed-in user with premium running, or an admin;
 * - `admin`: administrators only.
 */
export const AccessLevels = ['public', 'session', 'owner', 'premium', 'admin'] as const;
export type Access = (typeof AccessLevels)[number];

/** Who is asking, as both sides know it. `premium` is whether premium is running now. */
export interface Subject {
  id: number;
  role: Role;
  premium: boolean;
}

/** A playlist as the policy sees it. */
export interface PlaylistAccessFacts {
  ownerId: number;
  isPublic: boolean;
}

export const isAdmin = (subject: Pick<Subject, 'role'>): boolean => subject.role === 'ADMIN';

/** Premium runs while `premiumUntil` lies in the future. */
export function premiumRunning(premiumUntil: string | null, now: Date = new Date()): boolean {
  return premiumUntil !== null && Date.parse(premiumUntil) > now.getTime();
}

/** Downloads (offline copies) are for premium users and administrators. */
export const mayDownload = (subject: Pick<Subject, 'role' | 'premium'>): boolean => isAdmin(subject) || subject.premium;

/** A user's own account, or an administrator. */
export const mayManageUser = (subject: Pick<Subject, 'id' | 'role'>, userId: number): boolean =>
  subject.id === userId || isAdmin(subject);

/** Something owned by `ownerId` (an order, a playlist): its owner, or an administrator. */
export const mayManageOwned = (subject: Pick<Subject, 'id' | 'role'>, ownerId: number): boolean =>
  mayManageUser(subject, ownerId);

/** Public playlists are seen by every signed-in user; private ones by their owner and administrators. */
export const maySeePlaylist = (subject: Pick<Subject, 'id' | 'role'>, playlist: PlaylistAccessFacts): boolean =>
  playlist.isPublic || mayManageOwned(subject, playlist.ownerId);

/** Only the owner or an administrator changes a playlist, public or not. */
export const mayEditPlaylist = (subject: Pick<Subject, 'id' | 'role'>, playlist: PlaylistAccessFacts): boolean =>
  mayManageOwned(subject, playlist.ownerId);

/**
 * The playlists a subject may see, as a scope a query can apply: every playlist, or the public ones plus the
 * subject's own. Lists and the search SQL filter by this, so they agree with `maySeePlaylist` row by row.
 */
export type PlaylistVisibility = { kind: 'all' } | { kind: 'public-or-own'; userId: number };

export const visiblePlaylists = (subject: Pick<Subject, 'id' | 'role'>): PlaylistVisibility =>
  isAdmin(subject) ? { kind: 'all' } : { kind: 'public-or-own', userId: subject.id };

/**
 * Whether a caller passes a route's declared level at the door. `owner` passes any signed-in user here; the owner
 * rule itself is applied by the service once the resource is known.
 */
export function accessAllows(access: Access, subject: Pick<Subject, 'role' | 'premium'> | null): boolean {
  if (access === 'public') return true;
  if (subject === null) return false;
  if (access === 'admin') return isAdmin(subject);
  if (access === 'premium') return mayDownload(subject);
  return true;
}
