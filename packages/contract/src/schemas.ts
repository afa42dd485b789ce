/** Every schema, type, message and rule of the contract (everything but the endpoint declarations). */
export * from './accounts.js';
export * from './albums.js';
export * from './artists.js';
export * from './common.js';
export * from './constants.js';
export * from './errors.js';
export * from './genres.js';
export * from './messages.js';
export * from './payments.js';
export * from './playlists.js';
export * from './search.js';
export * from './songs.js';
export * from './users.js';
export * from './plays.js';
export * from './policy.js';
export * from './limits.js';
export * from './health.js';
