import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';

/** A library as the Folders view lists it, with its present songs (missing ones left out). */
export interface FolderLibraryRow {
  id: number;
  name: string;
  song_count: number;
}

/** A folder directly inside the one asked for: its name, the present songs anywhere under it, one of their covers. */
export interface SubfolderRow {
  name: string;
  song_count: number;
  image_key: string | null;
  /** A song under it that has a picture (Subsonic's coverArt); null when none has. */
  cover_song_id: number | null;
}

/** A present song directly in the folder asked for: its id and its path in the library. */
export interface FolderSongRow {
  song_id: number;
  path: string;
}

/** Characters (code points) in a string, as SQL's substr counts them on both dialects. */
const characters = (text: string): number => text.length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);

/**
 * The SQL of the Folders view (issue 25): everything comes from library_files' paths (relative to the library, parts
 * joined by `/`), read through the (library_id, path) unique index of migration 017; songs whose file is missing are
 * left out. A folder is named by its `prefix`: '' for the root, else its path followed by `/`.
 */
export function createLibraryFoldersRepository(db: Kysely<DB>) {
  const postgres = dialectOf(db) === 'postgres';

  /** The path after the prefix (1-based substr from the character after it). */
  const rest = (prefix: string): RawBuilder<string> =>
    sql<string>`substr(library_files.path, ${sql.lit(characters(prefix) + 1)})`;
  /** Where the first `/` of the rest is (0: none, a file directly in the folder). */
  const slashIn = (prefix: string): RawBuilder<number> =>
    postgres ? sql<number>`strpos(${rest(prefix)}, '/')` : sql<number>`instr(${rest(prefix)}, '/')`;

  /**
   * The files under the prefix. SQLite compares text byte by byte (UTF-8 keeps code point order), so a range on the
   * index finds them; PostgreSQL's order depends on the database's collation, so it compares the path's start itself.
   */
  const under = (prefix: string): Expression<SqlBool> => {
    if (prefix === '') return sql<SqlBool>`1 = 1`;
    if (postgres) return sql<SqlBool>`substr(library_files.path, 1, ${sql.lit(characters(prefix))}) = ${prefix}`;
    // The prefix ends with '/', and '0' is the character after '/': every path starting with the prefix is in range.
    const end = `${prefix.slice(0, -1)}0`;
    return sql<SqlBool>`(library_files.path >= ${prefix} and library_files.path < ${end})`;
  };

  const presentFiles = (libraryId: number, prefix: string) =>
    db
      .selectFrom('library_files')
      .innerJoin('songs', 'songs.id', 'library_files.song_id')
      .where('library_files.library_id', '=', libraryId)
      .where('songs.missing_since', 'is', null)
      .where(under(prefix));

  return {
    /** The libraries not in `hidden`, by id, with their present songs. */
    async libraries(hidden: readonly number[]): Promise<FolderLibraryRow[]> {
      const rows = await db
        .selectFrom('libraries')
        .select(['libraries.id', 'libraries.name'])
        .select((eb) =>
          eb
            .selectFrom('songs')
            .select((inner) => inner.fn.countAll<number | string>().as('count'))
            .whereRef('songs.library_id', '=', 'libraries.id')
            .where('songs.missing_since', 'is', null)
            .as('song_count'),
        )
        .$if(hidden.length > 0, (query) => query.where('libraries.id', 'not in', [...hidden]))
        .orderBy('libraries.id')
        .execute();
      return rows.map((row) => ({ id: row.id, name: row.name, song_count: Number(row.song_count ?? 0) }));
    },

    /** The library's name, or undefined when there is no such library. */
    async libraryName(libraryId: number): Promise<string | undefined> {
      const row = await db.selectFrom('libraries').select('name').where('id', '=', libraryId).executeTakeFirst();
      return row?.name;
    },

    /** The folders directly inside the prefix's folder that hold present songs (at any depth), unordered. */
    async subfolders(libraryId: number, prefix: string): Promise<SubfolderRow[]> {
      const slash = slashIn(prefix);
      // Numbers written into the SQL (lengths, never text): the grouped expression is the selected one on PostgreSQL.
      const name = sql<string>`substr(library_files.path, ${sql.lit(characters(prefix) + 1)}, ${slash} - 1)`;
      const rows = await presentFiles(libraryId, prefix)
        .select([
          name.as('name'),
          (eb) => eb.fn.countAll<number | string>().as('song_count'),
          (eb) => eb.fn.max('songs.image_key').as('image_key'),
          sql<number | string | null>`max(case when songs.image_key is null then null else songs.id end)`.as(
            'cover_song_id',
          ),
        ])
        .where(sql<SqlBool>`${slash} > 0`)
        .groupBy(name)
        .execute();
      return rows.map((row) => ({
        name: row.name,
        song_count: Number(row.song_count),
        image_key: row.image_key,
        cover_song_id: row.cover_song_id === null ? null : Number(row.cover_song_id),
      }));
    },

    /** The present songs directly in the prefix's folder, unordered. */
    songs(libraryId: number, prefix: string): Promise<FolderSongRow[]> {
      return presentFiles(libraryId, prefix)
        .select(['library_files.song_id', 'library_files.path'])
        .where(sql<SqlBool>`${slashIn(prefix)} = 0`)
        .execute();
    },
  };
}

export type LibraryFoldersRepository = ReturnType<typeof createLibraryFoldersRepository>;
