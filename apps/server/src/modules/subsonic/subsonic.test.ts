import { ApiKeyListResponse, CreatedApiKey, SubsonicMessages } from '@tonearm/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeArtist, makeSong, makeUser, type TestUser } from '../../../test/factories.js';
import { Child, subsonicApi } from '../../../test/subsonic.js';
import { escapeXml } from './subsonic.response.js';

interface Envelope {
  status: string;
  version: string;
  type: string;
  serverVersion: string;
  openSubsonic: boolean;
  error?: { code: number; message: string };
  [field: string]: unknown;
}

const envelopeOf = (body: string): Envelope =>
  (JSON.parse(body) as { 'subsonic-response': Envelope })['subsonic-response'];

describe('escapeXml', () => {
  it('escapes the five special characters and drops what XML 1.0 cannot carry', () => {
    expect(escapeXml(`a&b<c>d"e'f`)).toBe('a&amp;b&lt;c&gt;d&quot;e&apos;f');
    expect(escapeXml('x\u0001y\u000bz\ud800\tok\n')).toBe('xyz\tok\n');
    expect(escapeXml('\ud83c\udfb5')).toBe('\ud83c\udfb5');
  });
});

describeEachDialect('Subsonic API (%s)', (t) => {
  let alice: TestUser;
  let bob: TestUser;
  let admin: TestUser;
  let aliceKey: CreatedApiKey;

  const createKey = async (actor: TestUser, owner: TestUser, name: string) =>
    t.as(actor).post(`/api/users/${owner.id}/api-keys`, { name });

  const rest = (query: string) => t.as(null).get(`/rest/${query}`);
  const restJson = async (method: string, query = '') => {
    const response = await rest(`${method}?f=json&${query}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    return envelopeOf(response.body);
  };
  const keyQuery = () => `apiKey=${encodeURIComponent(aliceKey.key)}`;

  beforeAll(async () => {
    const made = await makeUser(t);
    // Registration allows no such name; set directly, it shows the XML escaping of a value.
    alice = { ...made, username: `${made.username}<&>"` };
    await t.db.updateTable('users').set({ username: alice.username }).where('id', '=', alice.id).execute();
    bob = await makeUser(t);
    admin = await makeAdmin(t);
    const created = await createKey(alice, alice, 'Phone');
    expect(created.statusCode).toBe(201);
    aliceKey = CreatedApiKey.parse(created.json());
  });

  describe('the envelope', () => {
    it('answers ping in JSON with f=json', async () => {
      expect(await restJson('ping', keyQuery())).toEqual({
        status: 'ok',
        version: '1.16.1',
        type: 'tonearm',
        serverVersion: '0.1.0',
        openSubsonic: true,
      });
    });

    it('answers XML otherwise, with the namespace and escaped attributes', async () => {
      const response = await rest(`tokenInfo?${keyQuery()}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/xml/);
      const escaped = alice.username.replace('<&>"', '&lt;&amp;&gt;&quot;');
      expect(response.body).toBe(
        '<?xml version="1.0" encoding="UTF-8"?><subsonic-response xmlns="http://subsonic.org/restapi" status="ok" ' +
          `version="1.16.1" type="tonearm" serverVersion="0.1.0" openSubsonic="true"><tokenInfo username="${escaped}"/>` +
          '</subsonic-response>',
      );
    });

    it('takes the .view suffix', async () => {
      expect((await restJson('ping.view', keyQuery())).status).toBe('ok');
      const xml = await rest(`getLicense.view?${keyQuery()}`);
      expect(xml.body).toContain('<license valid="true"/>');
    });

    it('takes the parameters as a POST form (formPost)', async () => {
      const response = await t.as(null).inject({
        method: 'POST',
        url: '/rest/tokenInfo.view',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `f=json&${keyQuery()}`,
      });
      expect(response.statusCode).toBe(200);
      expect(envelopeOf(response.body)).toMatchObject({ status: 'ok', tokenInfo: { username: alice.username } });
    });

    it('writes arrays of scalars as elements with text in XML', async () => {
      const response = await rest('getOpenSubsonicExtensions');
      expect(response.body).toContain(
        '<openSubsonicExtensions name="formPost"><versions>1</versions></openSubsonicExtensions>' +
          '<openSubsonicExtensions name="apiKeyAuthentication"><versions>1</versions></openSubsonicExtensions>',
      );
    });
  });

  describe('system methods', () => {
    it('getLicense is valid', async () => {
      expect((await restJson('getLicense', keyQuery())).license).toEqual({ valid: true });
    });

    it('getOpenSubsonicExtensions needs no credentials and lists every extension implemented', async () => {
      // Each is tested where it works: formPost above, apiKeyAuthentication below (and subsonic-client.test.ts),
      // songLyrics in methods/lyrics.test.ts, transcodeOffset in methods/media.test.ts (not listed without ffmpeg), playbackReport in playback.test.ts,
      // indexBasedQueue in modules/devices/devices-subsonic.test.ts, topSongsByArtistId and sonicSimilarity in methods/discovery.test.ts.
      expect((await restJson('getOpenSubsonicExtensions')).openSubsonicExtensions).toEqual([
        { name: 'formPost', versions: [1] },
        { name: 'apiKeyAuthentication', versions: [1] },
        { name: 'songLyrics', versions: [1] },
        { name: 'transcodeOffset', versions: [1] },
        { name: 'playbackReport', versions: [1] },
        { name: 'indexBasedQueue', versions: [1] },
        { name: 'topSongsByArtistId', versions: [1] },
        { name: 'sonicSimilarity', versions: [1] },
      ]);
    });

    it('tokenInfo names the key owner', async () => {
      expect((await restJson('tokenInfo', keyQuery())).tokenInfo).toEqual({ username: alice.username });
    });
  });

  describe('the first browsing methods, in both formats', () => {
    it('getOpenSubsonicExtensions has the same tree in XML (arrays of numbers as elements with text)', async () => {
      const api = subsonicApi(t, {});
      await api.shape(
        'getOpenSubsonicExtensions',
        {},
        z.strictObject({
          openSubsonicExtensions: z.array(z.strictObject({ name: z.string(), versions: z.array(z.number().int()) })),
        }),
      );
    });

    it('getMusicFolders names the blob store’s folder, id 0, on a server without libraries', async () => {
      const api = subsonicApi(t, { apiKey: aliceKey.key });
      const answer = await api.shape(
        'getMusicFolders',
        {},
        z.strictObject({
          musicFolders: z.strictObject({
            musicFolder: z.array(z.strictObject({ id: z.number().int(), name: z.string().optional() })),
          }),
        }),
      );
      expect(answer.musicFolders.musicFolder).toEqual([{ id: 0, name: 'Uploads' }]);
    });

    it('getSong answers a Child; a missing or malformed id is 70, no id is 10', async () => {
      const artistId = await makeArtist(t, admin, 'Getsong Artist');
      const songId = await makeSong(t, admin, { name: 'Getsong & <Title>', genre: 'Rock', artistId });
      const api = subsonicApi(t, { apiKey: aliceKey.key });
      const { song } = await api.shape('getSong', { id: songId }, z.strictObject({ song: Child }));
      expect(song).toMatchObject({
        id: String(songId),
        isDir: false,
        title: 'Getsong & <Title>',
        artist: 'Getsong Artist',
        artistId: `ar-${artistId}`,
        genre: 'Rock',
        coverArt: String(songId),
        suffix: 'wav',
        contentType: 'audio/wav',
        type: 'music',
        mediaType: 'song',
        genres: [{ name: 'Rock' }],
      });
      expect(song.starred).toBeUndefined();
      await api.error('getSong', { id: 999_999 }, 70);
      await api.error('getSong', { id: 'al-1' }, 70);
      await api.error('getSong', {}, 10);
    });
  });

  describe('errors, inside a normal 200 answer', () => {
    const expectError = async (method: string, query: string, code: number, message: string) => {
      const answer = await restJson(method, query);
      expect(answer.status).toBe('failed');
      expect(answer.error).toEqual({ code, message });
    };

    it('10: no credentials at all, or half of a token', async () => {
      await expectError('ping', '', 10, SubsonicMessages.missingAuth);
      await expectError('ping', 'u=alice&t=abc', 10, SubsonicMessages.missingParameter('s'));
      await expectError('ping', 'u=alice', 10, SubsonicMessages.missingParameter('p'));
    });

    it('40 for a password or a token of a user without an app password, or of nobody', async () => {
      const user = encodeURIComponent(bob.username);
      await expectError('ping', `u=${user}&t=abc&s=xyz`, 40, SubsonicMessages.wrongCredentials);
      await expectError(
        'ping',
        `u=${user}&p=${encodeURIComponent(bob.password)}`,
        40,
        SubsonicMessages.wrongCredentials,
      );
      await expectError('ping', 'u=nobody-at-all&p=secret', 40, SubsonicMessages.wrongCredentials);
    });

    it('43: apiKey together with u, p, t or s, even empty ones', async () => {
      for (const extra of ['u=alice', 'p=x', 't=x', 's=x', 'u=', 'p=', 'u=&p=']) {
        await expectError('ping', `${keyQuery()}&${extra}`, 43, SubsonicMessages.conflictingAuth);
      }
    });

    it('43: a password with a token, told as such (not as an API key matter)', async () => {
      for (const query of ['u=alice&p=x&t=y&s=z', 'u=alice&p=x&t=y', 'u=alice&p=x&s=z']) {
        await expectError('ping', query, 43, SubsonicMessages.passwordWithToken);
      }
      expect(SubsonicMessages.passwordWithToken).not.toMatch(/api ?key/i);
    });

    it('44: a key that does not exist', async () => {
      await expectError('ping', 'apiKey=not-a-key', 44, SubsonicMessages.invalidApiKey);
    });

    it('0: an unknown method, in XML too', async () => {
      await expectError('getEverything', keyQuery(), 0, SubsonicMessages.unknownMethod('getEverything'));
      const xml = await rest('getEverything.view');
      expect(xml.statusCode).toBe(200);
      expect(xml.body).toContain('status="failed"');
      expect(xml.body).toContain('<error code="0" message="Unknown method: getEverything"/>');
    });

    it('0: a body the server does not take, still in the envelope', async () => {
      const response = await t.as(null).inject({
        method: 'POST',
        url: '/rest/ping?f=json',
        headers: { 'content-type': 'application/octet-stream' },
        payload: 'x',
      });
      expect(response.statusCode).toBe(200);
      expect(envelopeOf(response.body)).toMatchObject({ status: 'failed', error: { code: 0 } });
    });
  });

  describe('API keys', () => {
    it('are listed without the key, with when they were made and used', async () => {
      await restJson('ping', keyQuery());
      const list = ApiKeyListResponse.parse((await t.as(alice).get(`/api/users/${alice.id}/api-keys`)).json());
      expect(list.apiKeys).toHaveLength(1);
      expect(list.apiKeys[0]).toMatchObject({ id: aliceKey.id, name: 'Phone' });
      expect(list.apiKeys[0]?.lastUsedAt).not.toBeNull();
      expect(JSON.stringify(list)).not.toContain(aliceKey.key);
    });

    it('are random base64url keys of 32 bytes, stored only as their hash', async () => {
      expect(aliceKey.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const rows = await t.db.selectFrom('subsonic_api_keys').select('key_hash').execute();
      expect(rows.some((row) => row.key_hash.includes(aliceKey.key))).toBe(false);
    });

    it('are the owner’s or an admin’s business: anyone else is told 404', async () => {
      expect((await createKey(bob, alice, 'Sneaky')).statusCode).toBe(404);
      expect((await t.as(bob).get(`/api/users/${alice.id}/api-keys`)).statusCode).toBe(404);
      expect((await t.as(bob).delete(`/api/users/${alice.id}/api-keys/${aliceKey.id}`)).statusCode).toBe(404);
      expect((await t.as(null).get(`/api/users/${alice.id}/api-keys`)).statusCode).toBe(401);
      const byAdmin = await createKey(admin, bob, 'Made by admin');
      expect(byAdmin.statusCode).toBe(201);
      const adminList = ApiKeyListResponse.parse((await t.as(admin).get(`/api/users/${bob.id}/api-keys`)).json());
      expect(adminList.apiKeys.map((key) => key.name)).toEqual(['Made by admin']);
      expect((await createKey(admin, { ...bob, id: 2_000_000 }, 'Nobody')).statusCode).toBe(404);
    });

    it('refuse a blank name', async () => {
      expect((await createKey(alice, alice, '   ')).statusCode).toBe(400);
    });

    it('once revoked, are refused with 44', async () => {
      const made = CreatedApiKey.parse((await createKey(bob, bob, 'Tablet')).json());
      const query = `apiKey=${encodeURIComponent(made.key)}`;
      expect((await restJson('ping', query)).status).toBe('ok');
      // Alice's key id is not Bob's to revoke through his account, even as its path.
      expect((await t.as(bob).delete(`/api/users/${bob.id}/api-keys/${aliceKey.id}`)).statusCode).toBe(404);
      expect((await t.as(bob).delete(`/api/users/${bob.id}/api-keys/${made.id}`)).statusCode).toBe(204);
      expect((await restJson('ping', query)).error).toEqual({ code: 44, message: SubsonicMessages.invalidApiKey });
      expect((await t.as(bob).delete(`/api/users/${bob.id}/api-keys/${made.id}`)).statusCode).toBe(404);
      expect((await restJson('ping', keyQuery())).status).toBe('ok');
    });

    it('go with their user', async () => {
      const carol = await makeUser(t);
      const made = CreatedApiKey.parse((await createKey(carol, carol, 'Desk')).json());
      await t.db.deleteFrom('users').where('id', '=', carol.id).execute();
      expect((await restJson('ping', `apiKey=${made.key}`)).error?.code).toBe(44);
    });
  });
});
