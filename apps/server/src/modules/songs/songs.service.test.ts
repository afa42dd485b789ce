import type { KyselyPlugin } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertUser } from '../../../test/factories.js';
import { createArtistsRepository } from '../artists/artists.repository.js';
import { createSearchIndexRepository } from '../search-index/search-index.repository.js';
import { toSongsJson } from './songs.presenter.js';
import { createSongsRepository } from './songs.repository.js';
import { SongsService } from './songs.service.js';

/** Counts the statements Kysely sends, to prove the listing costs the same few queries for any number of songs. */
function queryCounter(): KyselyPlugin & { count: number } {
  return {
    count: 0,
    transformQuery(args) {
      this.count += 1;
      return args.node;
    },
    transformResult(args) {
      return Promise.resolve(args.result);
    },
  };
}

describeEachDialect('song listing cost (%s)', { uses: 'database' }, (t) => {
  let userId = 0;

  async function seed(songs: number): Promise<void> {
    const { db } = t;
    const now = new Date().toISOString();
    const artist = await db
      .insertInto('artists')
      .values({ name: `Artist ${songs}`, image_key: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const playlist = await db
      .insertInto('playlists')
      .values({ owner_id: userId, name: 'Mine', type: '', is_public: 0, image_key: null, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (let i = 0; i < songs; i++) {
      const sha = `${songs}-${i}`.padStart(64, '0');
      const song = await db
        .insertInto('songs')
        .values({
          name: `Song ${i}`,
          genre: 'Pop',
          artist_id: artist.id,
          audio_key: `${sha}.wav`,
          audio_sha256: sha,
          mime: 'audio/wav',
          size_bytes: 1,
          duration_ms: 1000,
          image_key: null,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (i % 2 === 0)
        await db.insertInto('likes').values({ user_id: userId, song_id: song.id, created_at: now }).execute();
      if (i % 3 === 0) {
        await db
          .insertInto('playlist_songs')
          .values({ playlist_id: playlist.id, song_id: song.id, position: i, added_at: now })
          .execute();
      }
    }
  }

  async function listWithCount(): Promise<{ queries: number; songs: number; liked: number; inPlaylists: number }> {
    const counter = queryCounter();
    const db = t.db.withPlugin(counter);
    const service = new SongsService(
      createSongsRepository(db),
      createArtistsRepository(db),
      createSearchIndexRepository(db, t.dialect),
      () => Promise.resolve(),
      { songSaved: () => undefined, songRemoved: () => undefined },
    );
    const songs = toSongsJson(await service.list({ id: userId, role: 'USER', hiddenLibraries: [] }));
    return {
      queries: counter.count,
      songs: songs.length,
      liked: songs.filter((s) => s.likeSong).length,
      inPlaylists: songs.filter((s) => s.playlistIds.length > 0).length,
    };
  }

  beforeAll(async () => {
    userId = (await insertUser(t, { username: 'counter' })).id;
  });

  it('lists with one joined query plus one each for the likes, the playlists and the ratings, whatever the size', async () => {
    await seed(3);
    const small = await listWithCount();
    expect(small).toEqual({ queries: 4, songs: 3, liked: 2, inPlaylists: 1 });
    await seed(120);
    const large = await listWithCount();
    expect(large).toEqual({ queries: 4, songs: 123, liked: 62, inPlaylists: 41 });
  });
});
