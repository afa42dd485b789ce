import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertSongs, insertUser } from '../../../test/factories.js';
import { LASTFM, LISTENBRAINZ_TOKEN, startScrobbleServer, type ScrobbleServer } from '../../../test/scrobble-server.js';
import { SecretBox } from '../subsonic/secret-box.js';
import { lastFm, listenBrainz } from './providers.js';
import { createScrobblingRepository } from './scrobbling.repository.js';
import { ScrobblingService } from './scrobbling.service.js';

/**
 * The durable queue against local ListenBrainz and Last.fm servers (test/scrobble-server.ts): what is sent, when it is
 * tried again, what stops it, and that a listen is sent once across restarts and two senders.
 */
describeEachDialect('scrobbling out (%s)', { uses: 'database', fresh: 'each' }, (t) => {
  let fake: ScrobbleServer;
  let clock: number;
  let listenId = 1;

  beforeAll(async () => {
    fake = await startScrobbleServer();
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.received.length = 0;
    fake.mode = 'ok';
    fake.ignoredTitles.clear();
    clock = Date.parse('2026-11-28T12:00:00Z');
  });

  function service(): ScrobblingService {
    const sender = new ScrobblingService(
      createScrobblingRepository(t.db, t.dialect),
      new SecretBox('a-test-secret-key-of-at-least-32-characters', t.database.dataDir),
      [listenBrainz(fake.listenBrainzUrl), lastFm(fake.lastFmUrl)],
      { now: () => clock, firstBackoffMs: 1000, maxBackoffMs: 8000, idlePollMs: 60_000 },
    );
    sender.start();
    return sender;
  }

  async function listenerWithSongs(count = 3) {
    const user = await insertUser(t);
    const songs = await insertSongs(t, count, `Band ${String(user.id)}`);
    return { user, songs };
  }

  const listen = (userId: number, songId: number, minutesAfter = 1) => ({
    id: listenId++,
    userId,
    songId,
    playedAt: new Date(clock + minutesAfter * 60_000).toISOString(),
    listenedMs: 200_000,
  });

  const queued = async () =>
    Number(
      (
        await t.db
          .selectFrom('scrobble_queue')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('checks credentials when connecting, and keeps them out of every answer', async () => {
    const sender = service();
    const { user } = await listenerWithSongs(0);
    await expect(sender.connect(user.id, 'listenbrainz', { token: 'wrong' })).rejects.toMatchObject({
      status: 400,
    });
    await expect(sender.connect(user.id, 'lastfm', { ...LASTFM, sessionKey: 'stale' })).rejects.toMatchObject({
      status: 400,
    });
    const lb = await sender.connect(user.id, 'listenbrainz', { token: LISTENBRAINZ_TOKEN });
    const fm = await sender.connect(user.id, 'lastfm', LASTFM);
    expect([lb.remoteName, fm.remoteName]).toEqual(['lb-listener', 'fm-listener']);
    const answer = JSON.stringify(await sender.accounts(user.id));
    for (const secret of [LISTENBRAINZ_TOKEN, LASTFM.secret, LASTFM.sessionKey, LASTFM.apiKey]) {
      expect(answer).not.toContain(secret);
    }
    const stored = await t.db.selectFrom('scrobble_accounts').select('secrets').execute();
    for (const row of stored) expect(row.secrets).not.toContain(LISTENBRAINZ_TOKEN);
    fake.mode = 'down';
    await expect(sender.connect(user.id, 'listenbrainz', { token: LISTENBRAINZ_TOKEN })).rejects.toMatchObject({
      status: 503,
    });
    await sender.stop();
  });

  it('sends each listen to every connected service once, and a started song as now playing', async () => {
    const sender = service();
    const { user, songs } = await listenerWithSongs(3);
    const [one, two, three] = songs;
    if (one === undefined || two === undefined || three === undefined) throw new Error('songs');
    // A listen before the account was connected is not sent.
    await sender.listened({ ...listen(user.id, one.id), playedAt: new Date(clock - 60_000).toISOString() });
    await sender.connect(user.id, 'listenbrainz', { token: LISTENBRAINZ_TOKEN });
    await sender.connect(user.id, 'lastfm', LASTFM);
    await sender.listened(listen(user.id, two.id));
    await sender.listened(listen(user.id, three.id, 5));
    await sender.nowPlaying(user.id, one.id);
    await sender.wake();
    const sent = (service: string, type: string) =>
      fake.received.filter((item) => item.service === service && item.type === type).map((item) => item.title);
    expect(sent('listenbrainz', 'listen').sort()).toEqual([two.name, three.name].sort());
    expect(sent('lastfm', 'listen').sort()).toEqual([two.name, three.name].sort());
    expect(sent('listenbrainz', 'now_playing')).toEqual([one.name]);
    expect(sent('lastfm', 'now_playing')).toEqual([one.name]);
    const lbListen = fake.received.find((item) => item.service === 'listenbrainz' && item.title === two.name);
    expect(lbListen).toMatchObject({ artist: `Band ${String(user.id)}`, listenedAt: (clock + 60_000) / 1000 });
    expect(await queued()).toBe(0);
    await sender.wake();
    expect(fake.received).toHaveLength(6);
    const accounts = await sender.accounts(user.id);
    expect(accounts.every((account) => account.lastSentAt !== null && account.queued === 0)).toBe(true);
    await sender.stop();
  });

  it('tries again with backoff while a service is down or rate-limited, then sends', async () => {
    const sender = service();
    const { user, songs } = await listenerWithSongs(1);
    await sender.connect(user.id, 'listenbrainz', { token: LISTENBRAINZ_TOKEN });
    fake.mode = 'down';
    await sender.listened(listen(user.id, songs[0]?.id ?? 0));
    await sender.wake();
    const first = await t.db.selectFrom('scrobble_queue').selectAll().executeTakeFirstOrThrow();
    expect(first.attempts).toBe(1);
    expect(first.last_error).toContain('503');
    const wait = Date.parse(first.next_attempt_at) - clock;
    expect(wait).toBeGreaterThanOrEqual(500);
    expect(wait).toBeLessThanOrEqual(1000);
    // Not due yet: nothing is sent.
    fake.mode = 'rate-limited';
    await sender.wake();
    expect((await t.db.selectFrom('scrobble_queue').select('attempts').executeTakeFirstOrThrow()).attempts).toBe(1);
    clock += 1000;
    await sender.wake();
    const second = await t.db.selectFrom('scrobble_queue').selectAll().executeTakeFirstOrThrow();
    expect(second.attempts).toBe(2);
    // The service's own X-RateLimit-Reset-In (1 s) or the backoff (1–2 s), whichever is later.
    expect(Date.parse(second.next_attempt_at) - clock).toBeGreaterThanOrEqual(1000);
    fake.mode = 'ok';
    clock += 2000;
    await sender.wake();
    expect(fake.received.map((item) => item.title)).toEqual([songs[0]?.name]);
    expect(await queued()).toBe(0);
    await sender.stop();
  });

  it('stops an account whose credentials are refused, keeping what waits, until it is connected again', async () => {
    const sender = service();
    const { user, songs } = await listenerWithSongs(2);
    await sender.connect(user.id, 'lastfm', LASTFM);
    await t.db
      .updateTable('scrobble_accounts')
      .set({
        secrets: (await t.db.selectFrom('scrobble_accounts').select('secrets').executeTakeFirstOrThrow()).secrets,
      })
      .execute();
    // The session key is revoked at Last.fm: every call is now error 9.
    const revoked = new SecretBox('a-test-secret-key-of-at-least-32-characters', t.database.dataDir);
    const sealed = await revoked.seal(
      JSON.stringify({ ...LASTFM, sessionKey: 'revoked' }),
      `scrobble:${String(user.id)}:lastfm`,
    );
    await t.db.updateTable('scrobble_accounts').set({ secrets: sealed }).execute();
    for (const song of songs) await sender.listened(listen(user.id, song.id));
    await sender.wake();
    const [account] = await sender.accounts(user.id);
    expect(account).toMatchObject({ state: 'attention', queued: 2 });
    expect(account?.lastError).toContain('9');
    expect(fake.received).toEqual([]);
    await sender.connect(user.id, 'lastfm', LASTFM);
    await sender.wake();
    expect(fake.received.map((item) => item.title).sort()).toEqual(songs.map((song) => song.name).sort());
    expect((await sender.accounts(user.id))[0]).toMatchObject({ state: 'ok', queued: 0, lastError: null });
    await sender.stop();
  });

  it('records a listen Last.fm ignored, and sends the rest of the batch', async () => {
    const sender = service();
    const { user, songs } = await listenerWithSongs(3);
    await sender.connect(user.id, 'lastfm', LASTFM);
    fake.ignoredTitles.add(songs[1]?.name ?? '');
    for (const song of songs) await sender.listened(listen(user.id, song.id));
    await sender.wake();
    expect(fake.received.map((item) => item.title).sort()).toEqual([songs[0]?.name, songs[2]?.name].sort());
    const [account] = await sender.accounts(user.id);
    expect(account?.lastError).toContain(`Not sent: ${songs[1]?.name ?? ''}`);
    expect(account?.queued).toBe(0);
    await sender.stop();
  });

  it('sends what waited across a restart exactly once, also with two senders at once', async () => {
    const { user, songs } = await listenerWithSongs(3);
    const before = service();
    await before.connect(user.id, 'listenbrainz', { token: LISTENBRAINZ_TOKEN });
    await before.stop();
    // Queued while no sender runs (a stopped one queues but does not send).
    for (const song of songs) await before.listened(listen(user.id, song.id));
    expect(await queued()).toBe(3);
    const [a, b] = [service(), service()];
    await Promise.all([a.wake(), b.wake()]);
    await Promise.all([a.wake(), b.wake()]);
    expect(fake.received.map((item) => item.title).sort()).toEqual(songs.map((song) => song.name).sort());
    expect(await queued()).toBe(0);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('queues a listen once, however often it is reported', async () => {
    const sender = service();
    const { user, songs } = await listenerWithSongs(1);
    await sender.connect(user.id, 'listenbrainz', { token: LISTENBRAINZ_TOKEN });
    await sender.stop();
    const once = listen(user.id, songs[0]?.id ?? 0);
    await sender.listened(once);
    await sender.listened(once);
    expect(await queued()).toBe(1);
  });
});
