import type { Kysely, Migration } from 'kysely';

/*
 * Issue 28, the audio analysis: `song_features.audio_key` is the song's audio key when it was analysed. A library file
 * changed on disk, or a song's audio replaced, gets a new key (media/library-keys.ts), and its row then no longer
 * matches: the analysis takes the song again, as it does a row of an older FEATURE_VERSION. Null for a row written
 * before this migration (none were: the analysis came with it).
 */
export const songFeaturesAudioMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('song_features').addColumn('audio_key', 'text').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('song_features').dropColumn('audio_key').execute();
  },
};
