import type { Kysely, Migration } from 'kysely';

/*
 * Issue 28, smart playlists: a playlist whose `smart_rules` is set chooses its songs by those rules (the contract's
 * SmartDefinition as JSON: rules, sort, limit) each time it is read, instead of by its `playlist_songs` rows; null for
 * every other playlist. Kept on `playlists` so a smart playlist is a playlist everywhere (lists, sharing, Subsonic).
 */
export const smartPlaylistsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('playlists').addColumn('smart_rules', 'text').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('playlists').dropColumn('smart_rules').execute();
  },
};
