import { ArtistCreditPage, RequestMessages, ServerMessages } from '@tonearm/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeArtist, makeSong, makeUser, type TestUser } from '../../../test/factories.js';
import { errorOf } from '../../../test/harness.js';

/**
 * GET /api/artists/:id/credits (issue 25): the songs that credit an artist as composer, producer… Credits come from
 * a file's tags (song_artists); the songs here are uploads, their credits written as a scan writes them.
 */
describeEachDialect('artist credits (%s)', (t) => {
  let admin: TestUser;
  let user: TestUser;
  let credited: number;
  let main: number;
  /** The songs that credit `credited` in a contributor role and are not theirs: listed, oldest first. */
  let listed: number[];

  const credit = (songId: number, artistId: number, role: string, subRole = '', position = 0) =>
    t.db
      .insertInto('song_artists')
      .values({ song_id: songId, artist_id: artistId, role, sub_role: subRole, position })
      .execute();
  const credits = (artistId: number, query = '', who: TestUser | null = user) =>
    t.as(who).get(`/api/artists/${artistId}/credits${query}`);
  const page = async (artistId: number, query = '') => {
    const response = await credits(artistId, query);
    expect(response.statusCode, response.body).toBe(200);
    return ArtistCreditPage.parse(response.json());
  };

  beforeAll(async () => {
    admin = await makeAdmin(t);
    user = await makeUser(t);
    credited = await makeArtist(t, admin, 'Cara Cole');
    main = await makeArtist(t, admin, 'Main Act');
    const other = await makeArtist(t, admin, 'Other Act');

    const composed = await makeSong(t, admin, { artistId: main, name: 'Composed' });
    await credit(composed, credited, 'producer');
    await credit(composed, credited, 'composer');
    await credit(composed, other, 'composer', '', 1);
    const played = await makeSong(t, admin, { artistId: other, name: 'Played' });
    await credit(played, credited, 'performer', 'guitar');
    await credit(played, credited, 'performer', 'vocals', 1);
    // Theirs as main artist: on their own list, not here.
    const own = await makeSong(t, admin, { artistId: credited, name: 'Own' });
    await credit(own, credited, 'composer');
    // Theirs as a featured artist: on their own list too.
    const featured = await makeSong(t, admin, { artistId: main, name: 'Featured' });
    await credit(featured, credited, 'artist', '', 1);
    await credit(featured, credited, 'lyricist');
    // Missing from its library folder: out of every list.
    const missing = await makeSong(t, admin, { artistId: main, name: 'Missing' });
    await credit(missing, credited, 'lyricist');
    await t.db
      .updateTable('songs')
      .set({ missing_since: new Date().toISOString() })
      .where('id', '=', missing)
      .execute();
    // An album artist is not a contributor role.
    const albumArtist = await makeSong(t, admin, { artistId: other, name: 'Album artist' });
    await credit(albumArtist, credited, 'albumartist');
    const mixed = await makeSong(t, admin, { artistId: other, name: 'Mixed' });
    await credit(mixed, credited, 'mixer');
    listed = [composed, played, mixed];
  });

  it("lists the songs crediting the artist in a contributor role, with the artist's roles, as Song JSON", async () => {
    const answer = await page(credited);
    expect(answer.total).toBe(3);
    expect(answer.nextCursor).toBeNull();
    expect(answer.items.map((item) => item.song.id)).toEqual(listed);
    expect(answer.items.map((item) => item.song.name)).toEqual(['Composed', 'Played', 'Mixed']);
    expect(answer.items.map((item) => item.roles)).toEqual([
      [
        { role: 'composer', subRole: null },
        { role: 'producer', subRole: null },
      ],
      [
        { role: 'performer', subRole: 'guitar' },
        { role: 'performer', subRole: 'vocals' },
      ],
      [{ role: 'mixer', subRole: null }],
    ]);
    // Full Song JSON, its credits with it: the web app plays and lists it like any other song.
    const [composed] = answer.items;
    expect(composed?.song).toMatchObject({ artistId: main, artistName: 'Main Act', available: true, likeSong: false });
    expect(composed?.song.contributors).toContainEqual({
      role: 'composer',
      subRole: null,
      artistId: credited,
      artistName: 'Cara Cole',
    });
  });

  it('pages by cursor; the total counts every page', async () => {
    const first = await page(credited, '?limit=2');
    expect(first.items.map((item) => item.song.id)).toEqual(listed.slice(0, 2));
    expect(first.total).toBe(3);
    expect(first.nextCursor).not.toBeNull();
    const second = await page(credited, `?limit=2&cursor=${first.nextCursor ?? ''}`);
    expect(second.items.map((item) => item.song.id)).toEqual(listed.slice(2));
    expect(second).toMatchObject({ total: 3, nextCursor: null });
  });

  it('an artist credited nowhere else has an empty page; their likes show on the songs', async () => {
    expect(await page(main)).toEqual({ items: [], nextCursor: null, total: 0 });
    const [first] = listed;
    expect((await t.as(user).put(`/api/songs/${first}/like`)).statusCode).toBe(204);
    const answer = await page(credited);
    expect(answer.items[0]?.song.likeSong).toBe(true);
  });

  it('refuses: no session 401, unknown artist 404, a bad limit or a cursor of another artist 400', async () => {
    expect((await credits(credited, '', null)).statusCode).toBe(401);
    const unknown = await credits(999_999);
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown.body).message).toBe(ServerMessages.artistNotFound);
    expect((await credits(0)).statusCode).toBe(400);
    expect((await credits(credited, '?limit=0')).statusCode).toBe(400);
    const { nextCursor } = await page(credited, '?limit=1');
    const foreign = await credits(main, `?cursor=${nextCursor ?? ''}`);
    expect(foreign.statusCode).toBe(400);
    expect(errorOf(foreign.body)).toMatchObject({ message: RequestMessages.badCursor, field: 'cursor' });
  });
});
