import { CONTRIBUTOR_ROLES } from '@tonearm/contract';
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { DuplicateError } from '../../db/duplicate-error.js';
import { uniqueViolation } from '../../db/errors.js';
import { songSeen } from '../../db/library-visibility.js';
import type { ArtistRow, DB } from '../../db/schema.js';

/** An artist row with the ids of its songs (oldest first). */
export interface ArtistWithSongs extends ArtistRow {
  songIds: number[];
}

/**
 * Libraries hidden from the viewer (issue 25): their songs leave the artists' song ids, and an artist whose every song
 * is in them is left out (an artist with no song at all, added by an administrator, stays).
 */
export type HiddenLibraries = readonly number[];

/** A song that credits an artist in contributor roles: its id and those roles. */
export interface CreditedSong {
  songId: number;
  roles: { role: string; subRole: string | null }[];
}

export interface ArtistsRepository {
  /** Every artist, by name, each with its song ids: two queries, whatever the number of artists. */
  /** By name, then id; the first `limit` (of those a viewer with `hidden` libraries sees) when given. */
  list(hidden?: HiddenLibraries, limit?: number): Promise<ArtistWithSongs[]>;
  /** The artists with these ids (any order), each with its song ids. */
  listByIds(ids: readonly number[], hidden?: HiddenLibraries): Promise<ArtistWithSongs[]>;
  find(id: number): Promise<ArtistRow | undefined>;
  /**
   * Up to `limit` songs after `afterSongId` (by id) that credit the artist in a contributor role (CONTRIBUTOR_ROLES),
   * with those roles (by role, then as tagged); the artist's own songs (main artist, or one of the song's artists)
   * and missing songs left out.
   */
  creditsPage(
    artistId: number,
    afterSongId: number | undefined,
    limit: number,
    hidden?: HiddenLibraries,
  ): Promise<CreditedSong[]>;
  /** How many songs creditsPage lists for the artist, over all its pages. */
  creditsCount(artistId: number, hidden?: HiddenLibraries): Promise<number>;
  findWithSongs(id: number, hidden?: HiddenLibraries): Promise<ArtistWithSongs | undefined>;
  /** Case-insensitive lookup, with the database's lower() on both sides as the unique index uses it. */
  findByName(name: string): Promise<ArtistRow | undefined>;
  /** DuplicateError('name') when an artist of that name (case-insensitive) exists. */
  insert(name: string, imageKey: string | null): Promise<ArtistRow>;
  /** DuplicateError('name') when another artist has the new name. */
  update(id: number, changes: { name?: string; image_key?: string | null }): Promise<void>;
  /**
   * Detaches the artist's songs (they stay, as "Unknown artist") and albums (theirs too; merged into the one
   * "Unknown artist" has of the same name, such as its placeholder), and deletes the artist, in one transaction.
   */
  delete(id: number): Promise<void>;
  /** Runs `work` in one transaction with a repository bound to it; a throw rolls everything back. */
  inTransaction<T>(work: (artists: ArtistsRepository) => Promise<T>): Promise<T>;
}

/** Another artist holds the name (the unique index on lower(name)): a DuplicateError('name'). */
function duplicateName(error: unknown): never {
  const violated = uniqueViolation(error);
  if (violated !== null && (violated.includes('name') || violated.includes('artists'))) {
    throw new DuplicateError('name');
  }
  throw error;
}

/** Each artist with the ids of its songs among `songs`, in the order of `songs`. */
export function attachSongIds(
  artists: ArtistRow[],
  songs: readonly { id: number; artist_id: number | null }[],
): ArtistWithSongs[] {
  const byArtist = new Map<number, number[]>();
  for (const song of songs) {
    if (song.artist_id === null) continue;
    const ids = byArtist.get(song.artist_id);
    if (ids) ids.push(song.id);
    else byArtist.set(song.artist_id, [song.id]);
  }
  return artists.map((artist) => ({ ...artist, songIds: byArtist.get(artist.id) ?? [] }));
}

export function createArtistsRepository(db: Kysely<DB>): ArtistsRepository {
  async function withSongIds(
    given: ArtistRow[],
    hidden: HiddenLibraries = [],
    limit?: number,
  ): Promise<ArtistWithSongs[]> {
    const seen = hidden.length === 0 ? given : await withoutHiddenOnly(given, hidden);
    const artists = limit === undefined ? seen : seen.slice(0, limit);
    if (artists.length === 0) return [];
    let query = db
      .selectFrom('songs')
      .select(['id', 'artist_id'])
      .where('artist_id', 'is not', null)
      .where('missing_since', 'is', null)
      .$if(hidden.length > 0, (seen) => seen.where(songSeen(hidden)))
      .orderBy('id', 'asc');
    // One artist (or a few): use the artist_id index; the whole list: one scan of songs instead of N lookups.
    if (artists.length <= 100)
      query = query.where(
        'artist_id',
        'in',
        artists.map((a) => a.id),
      );
    // A song appears under each of its artists, in id order.
    const songs = [...(await query.execute()), ...(await creditedSongs(artists, hidden))].sort((a, b) => a.id - b.id);
    return attachSongIds(artists, songs);
  }

  /** The artists less those credited on songs of the hidden libraries only (whatever the role). */
  async function withoutHiddenOnly(artists: ArtistRow[], hidden: HiddenLibraries): Promise<ArtistRow[]> {
    const few = artists.length <= 100;
    const ids = artists.map((artist) => artist.id);
    const { rows } = await sql<{ artist_id: number }>`
      select credited.artist_id from (
        select artist_id, library_id from songs
        where artist_id is not null ${few ? sql`and artist_id in (${sql.join(ids)})` : sql``}
        union all
        select song_artists.artist_id, songs.library_id from song_artists join songs on songs.id = song_artists.song_id
        ${few ? sql`where song_artists.artist_id in (${sql.join(ids)})` : sql``}
      ) credited
      group by credited.artist_id
      having max(case when ${songSeen(hidden, 'credited.library_id')} then 1 else 0 end) = 0`.execute(db);
    const hiddenOnly = new Set(rows.map((row) => row.artist_id));
    return hiddenOnly.size === 0 ? artists : artists.filter((artist) => !hiddenOnly.has(artist.id));
  }

  /** The songs on which the artists are credited as one of the artists (song_artists), beside the main one. */
  async function creditedSongs(artists: ArtistRow[], hidden: HiddenLibraries) {
    let query = db
      .selectFrom('song_artists')
      .innerJoin('songs', 'songs.id', 'song_artists.song_id')
      .select(['songs.id', 'song_artists.artist_id'])
      .where('song_artists.role', '=', 'artist')
      .where('songs.missing_since', 'is', null)
      .$if(hidden.length > 0, (seen) => seen.where(songSeen(hidden)));
    if (artists.length <= 100) {
      query = query.where(
        'song_artists.artist_id',
        'in',
        artists.map((a) => a.id),
      );
    }
    return query.execute();
  }

  /** The songs that credit the artist in a contributor role and are not theirs (as main or as another artist). */
  function creditedSongIds(artistId: number, hidden: HiddenLibraries) {
    return db
      .selectFrom('song_artists as credit')
      .innerJoin('songs', 'songs.id', 'credit.song_id')
      .select('credit.song_id')
      .distinct()
      .where('credit.artist_id', '=', artistId)
      .where('credit.role', 'in', [...CONTRIBUTOR_ROLES])
      .where('songs.missing_since', 'is', null)
      .$if(hidden.length > 0, (seen) => seen.where(songSeen(hidden)))
      .where((eb) => eb.or([eb('songs.artist_id', 'is', null), eb('songs.artist_id', '!=', artistId)]))
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('song_artists as own')
              .select('own.song_id')
              .whereRef('own.song_id', '=', 'credit.song_id')
              .where('own.artist_id', '=', artistId)
              .where('own.role', '=', 'artist'),
          ),
        ),
      );
  }

  return {
    async list(hidden = [], limit) {
      // With hidden libraries the artists seen only there are left out before the limit: the whole list is read.
      const artists = await db
        .selectFrom('artists')
        .selectAll()
        .orderBy('name', 'asc')
        .orderBy('id', 'asc')
        .$if(limit !== undefined && hidden.length === 0, (first) => first.limit(limit ?? 0))
        .execute();
      return withSongIds(artists, hidden, limit);
    },

    async listByIds(ids, hidden) {
      if (ids.length === 0) return [];
      const artists = await db
        .selectFrom('artists')
        .selectAll()
        .where('id', 'in', [...ids])
        .execute();
      return withSongIds(artists, hidden);
    },

    find(id) {
      return db.selectFrom('artists').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async creditsPage(artistId, afterSongId, limit, hidden = []) {
      let query = creditedSongIds(artistId, hidden).orderBy('credit.song_id', 'asc').limit(limit);
      if (afterSongId !== undefined) query = query.where('credit.song_id', '>', afterSongId);
      const ids = (await query.execute()).map((row) => row.song_id);
      if (ids.length === 0) return [];
      const roles = await db
        .selectFrom('song_artists')
        .select(['song_id', 'role', 'sub_role'])
        .where('artist_id', '=', artistId)
        .where('song_id', 'in', ids)
        .where('role', 'in', [...CONTRIBUTOR_ROLES])
        .orderBy('song_id')
        .orderBy('role')
        .orderBy('position')
        .execute();
      const bySong = new Map<number, CreditedSong>(ids.map((songId) => [songId, { songId, roles: [] }]));
      for (const row of roles) {
        bySong.get(row.song_id)?.roles.push({ role: row.role, subRole: row.sub_role === '' ? null : row.sub_role });
      }
      return [...bySong.values()];
    },

    async creditsCount(artistId, hidden = []) {
      const row = await db
        .selectFrom(creditedSongIds(artistId, hidden).as('credited'))
        .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    async findWithSongs(id, hidden) {
      const artist = await db.selectFrom('artists').selectAll().where('id', '=', id).executeTakeFirst();
      if (artist === undefined) return undefined;
      const [withSongs] = await withSongIds([artist], hidden);
      return withSongs;
    },

    findByName(name) {
      return db
        .selectFrom('artists')
        .selectAll()
        .where(sql<string>`lower(name)`, '=', sql<string>`lower(${name})`)
        .executeTakeFirst();
    },

    insert(name, imageKey) {
      return db
        .insertInto('artists')
        .values({ name, image_key: imageKey })
        .returningAll()
        .executeTakeFirstOrThrow()
        .catch(duplicateName);
    },

    async update(id, changes) {
      if (Object.keys(changes).length === 0) return;
      await db.updateTable('artists').set(changes).where('id', '=', id).execute().catch(duplicateName);
    },

    async delete(id) {
      await db.transaction().execute(async (trx) => {
        // Explicit rather than relying on ON DELETE SET NULL alone, so the search index triggers see the change too.
        await trx.updateTable('songs').set({ artist_id: null }).where('artist_id', '=', id).execute();
        // Its albums go to "Unknown artist" (the foreign key's set null). One that "Unknown artist" already has by
        // that name (its placeholder album above all, issue 25) is merged into it first: the unique index keeps one.
        const taken = (eb: ExpressionBuilder<DB, 'albums'>) =>
          eb.exists(
            eb
              .selectFrom('albums as unknown')
              .select('unknown.id')
              .where('unknown.artist_id', 'is', null)
              .whereRef('unknown.name', '=', 'albums.name'),
          );
        const merged = await trx
          .selectFrom('albums')
          .select(['id', 'name'])
          .where('artist_id', '=', id)
          .where(taken)
          .execute();
        for (const album of merged) {
          await trx
            .updateTable('album_tracks')
            .set((eb) => ({
              album_id: eb
                .selectFrom('albums')
                .select('albums.id')
                .where('albums.artist_id', 'is', null)
                .where('albums.name', '=', album.name),
            }))
            .where('album_id', '=', album.id)
            .execute();
          await trx.deleteFrom('albums').where('id', '=', album.id).execute();
        }
        await trx.deleteFrom('artists').where('id', '=', id).execute();
      });
    },

    inTransaction(work) {
      return db.transaction().execute((trx) => work(createArtistsRepository(trx)));
    },
  };
}
