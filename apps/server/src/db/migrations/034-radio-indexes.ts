import { sql, type Kysely, type Migration } from 'kysely';

/*
 * Issue 28's radio, at 100 000 songs (bench:radio's library, SQLite):
 * - `songs_genre_plays_idx`: each request asks for the most played songs of the seed's genres (radio.repository
 *   `byTags`). Without it a genre's songs were all read and sorted by play count: 7.8 ms for a genre of 4 800 songs;
 *   with it, the first rows of the index are the answer.
 * - `song_features_analysed_idx`: the index of vectors is built again when the newest `analysed_at` changes
 *   (`vectorsStamp`); without it that check read every row, 26 ms with the driver holding the event loop.
 */
const INDEXES = {
  songs_genre_plays_idx: sql`songs (genre, play_count desc, id)`,
  song_features_analysed_idx: sql`song_features (analysed_at)`,
};

export const radioIndexesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const [name, on] of Object.entries(INDEXES)) await sql`create index ${sql.id(name)} on ${on}`.execute(db);
  },

  async down(db: Kysely<unknown>) {
    for (const name of Object.keys(INDEXES)) await sql`drop index if exists ${sql.id(name)}`.execute(db);
  },
};
