import type { LyricsLine } from '@tonearm/contract';
import { sql, type Kysely } from 'kysely';
import { songSeen } from '../../db/library-visibility.js';
import type { DB, SongLyricsTable } from '../../db/schema.js';
import { isoNow } from '../../db/timestamps.js';
import type { FileLyrics, Lyrics } from '../../media/file-lyrics.js';

/** A song's stored lyrics. */
export type StoredLyrics = Lyrics;

function rowOf(songId: number, lyrics: Lyrics): SongLyricsTable {
  return {
    song_id: songId,
    source: lyrics.source,
    lang: lyrics.lang,
    synced: lyrics.synced ? 1 : 0,
    offset_ms: lyrics.offsetMs,
    lines: JSON.stringify(lyrics.lines),
    updated_at: isoNow(),
  };
}

function lyricsOf(row: Pick<SongLyricsTable, 'source' | 'lang' | 'synced' | 'offset_ms' | 'lines'>): StoredLyrics {
  return {
    source: row.source,
    lang: row.lang,
    synced: row.synced === 1,
    offsetMs: row.offset_ms,
    lines: JSON.parse(row.lines) as LyricsLine[],
  };
}

/**
 * Records the lyrics songs' files carry (the import, a library scan, an upload), inside the caller's transaction. A
 * song whose `lyrics` is undefined is left alone; null means its file has none. With `replace`, the lyrics an earlier
 * read of the file left go first; lyrics an administrator uploaded are never replaced by a file's.
 */
export async function recordFileLyrics(
  db: Kysely<DB>,
  songs: readonly { id: number | undefined; lyrics?: FileLyrics | null | undefined }[],
  replace: boolean,
): Promise<void> {
  const read = songs.flatMap(({ id, lyrics }) => (id === undefined || lyrics === undefined ? [] : [{ id, lyrics }]));
  if (replace) {
    const ids = read.map((song) => song.id);
    for (let at = 0; at < ids.length; at += 500) {
      await db
        .deleteFrom('song_lyrics')
        .where('song_id', 'in', ids.slice(at, at + 500))
        .where('source', '!=', 'uploaded')
        .execute();
    }
  }
  const rows = read.flatMap(({ id, lyrics }) => (lyrics === null ? [] : [rowOf(id, lyrics)]));
  for (let at = 0; at < rows.length; at += 100) {
    await db
      .insertInto('song_lyrics')
      .values(rows.slice(at, at + 100))
      // An uploaded row stays.
      .onConflict((conflict) => conflict.column('song_id').doNothing())
      .execute();
  }
}

/** A song that `getLyrics` found by artist and title, with its lyrics. */
export interface TitledLyrics {
  songId: number;
  title: string;
  artist: string | null;
  lyrics: StoredLyrics;
}

/** The SQL of songs' lyrics (song_lyrics, migration 024). */
export function createSongLyricsRepository(db: Kysely<DB>) {
  return {
    async find(songId: number): Promise<StoredLyrics | null> {
      const row = await db.selectFrom('song_lyrics').selectAll().where('song_id', '=', songId).executeTakeFirst();
      return row === undefined ? null : lyricsOf(row);
    },

    /** Stores an administrator's lyrics in place of whatever the song had. */
    async save(songId: number, lyrics: Lyrics): Promise<void> {
      const row = rowOf(songId, lyrics);
      const { song_id: _id, ...changes } = row;
      await db
        .insertInto('song_lyrics')
        .values(row)
        .onConflict((conflict) => conflict.column('song_id').doUpdateSet(changes))
        .execute();
    },

    /** Answers whether the song had lyrics. */
    async remove(songId: number): Promise<boolean> {
      const result = await db.deleteFrom('song_lyrics').where('song_id', '=', songId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /**
     * The first song (lowest id) with lyrics whose title is `title` and whose artist (or the artist as the file
     * displays it) is `artist`, both compared without case; either may be left out. Songs of the `hidden` libraries,
     * and those whose file is missing, are not found.
     */
    async findByTitle(
      query: { artist: string | null; title: string | null },
      hidden: readonly number[],
    ): Promise<TitledLyrics | null> {
      const lower = (text: string) => sql<string>`lower(${text})`;
      const row = await db
        .selectFrom('song_lyrics')
        .innerJoin('songs', 'songs.id', 'song_lyrics.song_id')
        .leftJoin('artists', 'artists.id', 'songs.artist_id')
        .select([
          'songs.id',
          'songs.name',
          'artists.name as artist',
          'song_lyrics.source',
          'song_lyrics.lang',
          'song_lyrics.synced',
          'song_lyrics.offset_ms',
          'song_lyrics.lines',
        ])
        .where('songs.missing_since', 'is', null)
        .$if(query.title !== null, (q) => q.where(sql`lower(songs.name)`, '=', lower(query.title ?? '')))
        .$if(query.artist !== null, (q) =>
          q.where((eb) =>
            eb.or([
              eb(sql`lower(artists.name)`, '=', lower(query.artist ?? '')),
              eb(sql`lower(songs.display_artist)`, '=', lower(query.artist ?? '')),
            ]),
          ),
        )
        .$if(hidden.length > 0, (q) => q.where(songSeen(hidden)))
        .orderBy('songs.id')
        .limit(1)
        .executeTakeFirst();
      if (row === undefined) return null;
      return { songId: row.id, title: row.name, artist: row.artist, lyrics: lyricsOf(row) };
    },
  };
}

export type SongLyricsRepository = ReturnType<typeof createSongLyricsRepository>;
