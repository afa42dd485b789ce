import { ScrobbleAccount, ScrobbleAccounts, ScrobbleMessages } from '@tonearm/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertSongs, makeUser, type TestUser } from '../../../test/factories.js';
import { LASTFM, LISTENBRAINZ_TOKEN, startScrobbleServer, type ScrobbleServer } from '../../../test/scrobble-server.js';
import { apiKeyOf, subsonicApi } from '../../../test/subsonic.js';

let fake: ScrobbleServer;
beforeAll(async () => {
  fake = await startScrobbleServer();
});
afterAll(async () => {
  await fake.close();
});

/**
 * The profile's scrobbling accounts over HTTP, and listens reaching them from a Subsonic app's scrobble and a web
 * play's start, against the local ListenBrainz and Last.fm of test/scrobble-server.ts.
 */
describeEachDialect(
  'scrobbling accounts and sends (%s)',
  {
    prepare: () =>
      Promise.resolve({ env: { LISTENBRAINZ_API_URL: fake.listenBrainzUrl, LASTFM_API_URL: fake.lastFmUrl } }),
  },
  (t) => {
    let alice: TestUser;
    let bob: TestUser;

    beforeAll(async () => {
      alice = await makeUser(t);
      bob = await makeUser(t);
    });

    it('connects each service for the caller only, refuses bad credentials and bad bodies, disconnects', async () => {
      expect((await t.as(null).get('/api/scrobbling')).statusCode).toBe(401);
      const refused = await t.as(alice).put('/api/scrobbling/listenbrainz', { token: 'nope' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ error: { message: ScrobbleMessages.invalidCredentials('ListenBrainz') } });
      expect((await t.as(alice).put('/api/scrobbling/lastfm', { apiKey: LASTFM.apiKey })).statusCode).toBe(400);
      expect((await t.as(alice).put('/api/scrobbling/listenbrainz', { token: '' })).statusCode).toBe(400);

      const lb = await t.as(alice).put('/api/scrobbling/listenbrainz', { token: LISTENBRAINZ_TOKEN });
      expect(lb.statusCode, lb.body).toBe(200);
      expect(ScrobbleAccount.parse(lb.json())).toMatchObject({ service: 'listenbrainz', remoteName: 'lb-listener' });
      expect((await t.as(alice).put('/api/scrobbling/lastfm', LASTFM)).statusCode).toBe(200);
      const mine = await t.as(alice).get('/api/scrobbling');
      expect(ScrobbleAccounts.parse(mine.json()).accounts.map((account) => account.service)).toEqual([
        'lastfm',
        'listenbrainz',
      ]);
      for (const secret of [LISTENBRAINZ_TOKEN, LASTFM.secret, LASTFM.sessionKey])
        expect(mine.body).not.toContain(secret);
      expect((await t.as(bob).json('/api/scrobbling', ScrobbleAccounts)).accounts).toEqual([]);
      expect((await t.as(bob).delete('/api/scrobbling/lastfm')).statusCode).toBe(404);
      expect((await t.as(alice).delete('/api/scrobbling/nothing')).statusCode).toBe(400);
      expect((await t.as(alice).delete('/api/scrobbling/lastfm')).statusCode).toBe(204);
      expect((await t.as(alice).json('/api/scrobbling', ScrobbleAccounts)).accounts).toHaveLength(1);
    });

    it('sends a Subsonic app’s scrobble as a listen and a web play as now playing', async () => {
      const [song] = await insertSongs(t, 1, 'Scrobbled Band');
      if (song === undefined) throw new Error('no song');
      fake.received.length = 0;
      const api = subsonicApi(t, { apiKey: await apiKeyOf(t, alice) });
      // Just now: a listen from before the account was connected would not be sent.
      const at = Date.now();
      await api.shape('scrobble', { id: song.id, time: at, c: 'Feishin' }, z.strictObject({}));
      const listens = await t.db.selectFrom('listens').selectAll().where('user_id', '=', alice.id).execute();
      expect(listens).toMatchObject([{ song_id: song.id, source: 'subsonic', client: 'Feishin' }]);
      expect((await t.as(alice).post('/api/plays', { songId: song.id })).statusCode).toBe(204);
      await t.composition.services.scrobbling.wake();
      expect(fake.received.map(({ type, title, artist }) => ({ type, title, artist }))).toEqual([
        { type: 'listen', title: song.name, artist: 'Scrobbled Band' },
        { type: 'now_playing', title: song.name, artist: 'Scrobbled Band' },
      ]);
      expect(fake.received[0]?.listenedAt).toBe(Math.floor(at / 1000));
      // Bob connected nothing: his plays go nowhere.
      await t.as(bob).post('/api/plays', { songId: song.id });
      await t.composition.services.scrobbling.wake();
      expect(fake.received).toHaveLength(2);
    });
  },
);
