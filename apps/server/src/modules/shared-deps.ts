import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { CounterStore } from '../counters/counter-store.js';
import type { Dialect } from '../db/database.js';
import type { DB } from '../db/schema.js';
import type { BlobReleaser } from '../maintenance/blob-release.js';
import type { SharedRateLimit } from '../plugins/rate-limit.js';
import type { SessionStore } from '../sessions/session-store.js';
import type { SetupCode } from '../setup-code.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { UploadQuota } from './limits/upload-quota.service.js';
import type { ImageWork } from '../media/image-work.js';
import type { MediaHandler } from './media/media-handler.js';
import type { NginxOffload } from '../media/nginx-offload.js';
import type { MediaMeters } from '../media/media-meters.js';

/** The app's pieces (composition.ts builds them). */
export interface AppDeps {
  config: Config;
  db: Kysely<DB>;
  dialect: Dialect;
  /** Null only in tests that do not touch media. */
  blobs: BlobStore | null;
  /** MEDIA_OFFLOAD=nginx over the local blob store: nginx sends stored media once access is checked; else null. */
  offload: NginxOffload | null;
  /** The pixel ceiling and the one gate every uploaded image of this app is decoded through. */
  images: ImageWork;
  /** The one-time code that claims the server while it has no administrator. */
  setupCode: SetupCode;
  /** The app's sessions (the same store the access guard and /media read). */
  sessions: SessionStore;
  /** Where audio streams and transcodes are counted for /metrics (no-ops when metrics are off). */
  meters: MediaMeters;
  /** Rate limits and sign-in failure counts: in the database on PostgreSQL, so instances sharing it count together. */
  counters: CounterStore;
}

/**
 * The app's pieces and the services several modules share, each made once by the composition root (composition.ts),
 * so that no module reaches into another for them. Every `registerX(app, deps)` names the part of this (and the
 * services of its own) that it reads.
 */
export interface ModuleDeps extends AppDeps {
  /** Deletes blobs a committed change stopped using; a no-op without a blob store. */
  releaseBlobs: BlobReleaser;
  /** The daily image allowance that profile photos and playlist covers are charged to. */
  uploadQuota: UploadQuota;
  /** UPLOAD_RATE_LIMIT: one counter per user across every upload route, attached as their preHandler. */
  uploads: SharedRateLimit;
  /** The /media handler (null without a blob store): the Subsonic API's stream answers through it. */
  media: MediaHandler | null;
}

/**
 * Issue 28: the viewer's own stars on one album or artist (null when unrated), for the album's and the artist's
 * answers; the ratings module answers it, the albums and artists modules read it without depending on that module.
 */
export type RatingOf = (kind: 'album' | 'artist', userId: number, id: number) => Promise<number | null>;

/** Issue 28: every one of the viewer's own stars on artists (artist id → 1–5), for the artist list's rating sort. */
export type ArtistRatingsOf = (userId: number) => Promise<ReadonlyMap<number, number>>;
