import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeUser } from '../../../test/factories.js';
import { listening, openLive } from '../../../test/live-client.js';
import { buildApp } from '../../app.js';

const newKey = () => randomBytes(12).toString('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The live channel as a long-lived response: two instances on one database deliver each other's events (PostgreSQL
 * LISTEN/NOTIFY; on SQLite the apps of one process share them in memory), the server's request timeouts never cut a
 * channel, heartbeats flow, and closing the app ends every channel instead of waiting on it.
 */
describeEachDialect('the live channel across instances (%s)', { uses: 'nothing' }, (suite) => {
  it('a command on one instance reaches the device’s channel on another, and only that user’s', async () => {
    await suite.withApp({}, async (t) => {
      const other = await buildApp({ config: t.config, db: t.db, dialect: t.dialect, blobs: t.blobs });
      try {
        const alice = await makeUser(t);
        const bob = await makeUser(t);
        const first = await listening(t.app);
        const second = await listening(other);
        const phone = await openLive(second, alice.cookie, newKey());
        const bobs = await openLive(second, bob.cookie, newKey());
        const { deviceId } = await phone.next('hello');
        await bobs.next('hello');
        const laptop = await openLive(first, alice.cookie, newKey());
        await laptop.next('hello');
        // Alice's laptop, connected to the first instance, is announced on the second.
        await phone.next('device', ({ device }) => device.id !== deviceId);
        const sent = await t.as(alice).post(`/api/devices/${deviceId}/commands`, { type: 'volume', volume: 0.25 });
        expect(sent.statusCode, sent.body).toBe(204);
        expect((await phone.next('command')).command).toEqual({ type: 'volume', volume: 0.25 });
        await sleep(100);
        expect(bobs.frames.map((frame) => frame.event)).toEqual(['hello']);
        for (const live of [phone, bobs, laptop]) live.close();
      } finally {
        await other.close();
      }
    });
  });

  it('outlives the request timeouts and ends when the app closes', async () => {
    const env = {
      HEADERS_TIMEOUT: '200ms',
      REQUEST_TIMEOUT: '300ms',
      UPLOAD_TIMEOUT: '400ms',
      UPLOAD_IDLE_TIMEOUT: '300ms',
      KEEP_ALIVE_TIMEOUT: '300ms',
    };
    await suite.withApp({ env }, async (t) => {
      const alice = await makeUser(t);
      const base = await listening(t.app);
      const live = await openLive(base, alice.cookie, newKey());
      await live.next('hello');
      await sleep(1200);
      // Still open three times past every timeout; a command still arrives.
      const { deviceId } = live.frames[0]?.data as { deviceId: number };
      await t.as(alice).post(`/api/devices/${deviceId}/commands`, { type: 'play' });
      expect((await live.next('command')).command).toEqual({ type: 'play' });
      const started = Date.now();
      await t.app.close();
      await live.ended;
      expect(Date.now() - started).toBeLessThan(3000);
    });
  });

  it('carries the security headers, and ends when its session signs out', async () => {
    await suite.withApp({}, async (t) => {
      const alice = await makeUser(t);
      const base = await listening(t.app);
      const live = await openLive(base, alice.cookie, newKey());
      const other = await openLive(base, (await makeUser(t)).cookie, newKey());
      await live.next('hello');
      await other.next('hello');
      expect(live.headers['x-content-type-options']).toBe('nosniff');
      expect(live.headers['content-security-policy']).toContain("default-src 'self'");
      expect(live.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      const out = await t.as(alice).post('/api/auth/logout');
      expect(out.statusCode).toBe(204);
      await live.ended;
      // Another user's channel stays open.
      await sleep(100);
      expect(other.frames.map((frame) => frame.event)).toEqual(['hello']);
      other.close();
    });
  });
});
