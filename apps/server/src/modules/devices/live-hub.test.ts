import { describe, expect, it } from 'vitest';
import { createNotifications } from '../../db/notifications.js';
import { LiveHub, type LiveConnection } from './live-hub.js';

/** A connection that keeps what it is sent; `full` makes it refuse (a client that stopped reading). */
function fakeConnection(userId: number, deviceId: number, sessionId = `session-${String(deviceId)}`) {
  const frames: string[] = [];
  const connection = {
    userId,
    deviceId,
    sessionId,
    full: false,
    ended: false,
    frames,
    write: (frame: string) => {
      frames.push(frame);
      return !connection.full;
    },
    end: () => {
      connection.ended = true;
    },
  };
  return connection satisfies LiveConnection;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 30));

describe('the live hub', () => {
  function hub(heartbeatMs = 10_000, live: ReadonlySet<string> | null = null) {
    const notifications = createNotifications({
      db: {} as never,
      dialect: 'sqlite',
      databaseUrl: null,
      channel: 'test_live',
    });
    return new LiveHub({
      notifications,
      touch: () => Promise.resolve(),
      resync: () => Promise.resolve(),
      stillLive: (ids) => Promise.resolve(live ?? new Set(ids)),
      heartbeatMs,
    });
  }

  it('delivers a user’s events to that user’s channels only, to one device or all but one', async () => {
    const live = hub();
    await live.start();
    const [a1, a2, b1] = [fakeConnection(1, 11), fakeConnection(1, 12), fakeConnection(2, 21)];
    for (const connection of [a1, a2, b1]) live.attach(connection);
    await live.publish({ userId: 1, event: 'queue', data: { deviceId: 11, changedAt: 'now' } });
    await live.publish({ userId: 1, event: 'command', data: { command: { type: 'pause' } }, to: 12 });
    await live.publish({ userId: 1, event: 'command', data: { command: { type: 'play' } }, except: 12 });
    await tick();
    expect(a1.frames).toEqual([
      'event: queue\ndata: {"deviceId":11,"changedAt":"now"}\n\n',
      'event: command\ndata: {"command":{"type":"play"}}\n\n',
    ]);
    expect(a2.frames).toEqual([
      'event: queue\ndata: {"deviceId":11,"changedAt":"now"}\n\n',
      'event: command\ndata: {"command":{"type":"pause"}}\n\n',
    ]);
    expect(b1.frames).toEqual([]);
    await live.stop();
    expect([a1, a2, b1].every((connection) => connection.ended)).toBe(true);
  });

  it('sends heartbeats, and lets go of a client that stopped reading', async () => {
    const live = hub(20);
    await live.start();
    const reader = fakeConnection(1, 11);
    const stuck = fakeConnection(1, 12);
    stuck.full = true;
    live.attach(reader);
    live.attach(stuck);
    await new Promise((resolve) => setTimeout(resolve, 70));
    expect(reader.frames.filter((frame) => frame === ': ping\n\n').length).toBeGreaterThanOrEqual(2);
    expect(stuck.ended).toBe(true);
    expect(live.size).toBe(1);
    await live.stop();
  });

  it('ends the channels whose session ended, at a check and on every heartbeat', async () => {
    const signedIn = new Set(['kept']);
    const live = hub(20, signedIn);
    await live.start();
    const kept = fakeConnection(1, 11, 'kept');
    const ended = fakeConnection(1, 12, 'gone');
    const later = fakeConnection(2, 21, 'later');
    for (const connection of [kept, ended]) live.attach(connection);
    await live.endSignedOut();
    expect([kept.ended, ended.ended]).toEqual([false, true]);
    expect(live.size).toBe(1);
    signedIn.add('later');
    live.attach(later);
    signedIn.delete('later');
    await new Promise((resolve) => setTimeout(resolve, 70));
    expect([kept.ended, later.ended]).toEqual([false, true]);
    await live.stop();
  });
});
