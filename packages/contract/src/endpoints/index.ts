import { albums } from './albums.js';
import { analysis } from './analysis.js';
import { artists } from './artists.js';
import { devices } from './devices.js';
import { auth } from './auth.js';
import { folders } from './folders.js';
import { libraries } from './libraries.js';
import { lyrics } from './lyrics.js';
import type { EndpointSpec } from './define.js';
import { payments } from './payments.js';
import { playlists } from './playlists.js';
import { scrobbling } from './scrobbling.js';
import { ratings } from './ratings.js';
import { radio } from './radio.js';
import { downloads, likes, plays, search, songs } from './songs.js';
import { listens, stats } from './stats.js';
import { apiKeys, appPassword } from './subsonic.js';
import { health, media } from './system.js';
import { users } from './users.js';

export * from './define.js';

/**
 * Every endpoint of the API, by feature and name: `endpoints.playlists.get`. The server registers its routes from
 * these declarations, the web's typed client and its test mocks are keyed by them, and OpenAPI is produced from them.
 */
export const endpoints = {
  auth,
  users,
  songs,
  likes,
  ratings,
  downloads,
  lyrics,
  plays,
  search,
  artists,
  albums,
  libraries,
  analysis,
  folders,
  playlists,
  payments,
  media,
  health,
  apiKeys,
  appPassword,
  devices,
  scrobbling,
  listens,
  stats,
  radio,
} as const;

export type Endpoints = typeof endpoints;
export type FeatureName = Extract<keyof Endpoints, string>;
/** `'playlists.get'`: the id of one endpoint (OpenAPI operationId, test mock key). */
export type EndpointId = { [F in FeatureName]: `${F}.${keyof Endpoints[F] & string}` }[FeatureName];
export type EndpointById<Id extends EndpointId> = Id extends `${infer F extends FeatureName}.${infer N}`
  ? N extends keyof Endpoints[F]
    ? Endpoints[F][N]
    : never
  : never;

export interface EndpointEntry {
  id: EndpointId;
  feature: FeatureName;
  spec: EndpointSpec;
}

/** Every declaration with its id, in declaration order. */
export const endpointList: readonly EndpointEntry[] = Object.entries(endpoints).flatMap(([feature, group]) =>
  Object.entries(group as Record<string, EndpointSpec>).map(([name, spec]) => ({
    id: `${feature}.${name}` as EndpointId,
    feature: feature as FeatureName,
    spec,
  })),
);
