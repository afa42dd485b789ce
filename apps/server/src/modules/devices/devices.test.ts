import { randomBytes } from 'node:crypto';
import { Device, DeviceList, SavedQueue, SubsonicResponseBodies as Bodies } from '@tonearm/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeArtist, makeSong, makeUser, type TestUser } from '../../../test/factories.js';
import { errorOf } from '../../../test/harness.js';
import { listening, openLive, type LiveClient } from '../../../test/live-client.js';
import { apiKeyOf, subsonicApi, type SubsonicApi } from '../../../test/subsonic.js';
import { deviceNameFromAgent } from './device-name.js';

const CHROME_ON_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const newKey = () => randomBytes(12).toString('hex');

/**
 * One queue across devices (issue 27), through the API: the queue store on both dialects, the devices and their
 * reports, remote control and transfer over the live channel, Subsonic's queue methods on the same queue, and that no
 * other user sees or reaches a device.
 */
describeEachDialect('devices and the one queue (%s)', (t) => {
  let base: string;
  let alice: TestUser;
  let bob: TestUser;
  let songs: [number, number, number, number];
  let aliceApp: SubsonicApi;
  const open: LiveClient[] = [];

  /** Alice's web client `key` with its live channel open, and its device id. */
  async function webDevice(user: TestUser, agent = CHROME_ON_MAC) {
    const live = await openLive(base, user.cookie, newKey(), agent);
    open.push(live);
    expect(live.status).toBe(200);
    const hello = await live.next('hello');
    return { live, id: hello.deviceId, hello };
  }

  beforeAll(async () => {
    const admin = await makeAdmin(t);
    const artistId = await makeArtist(t, admin, 'Queue Band');
    const song = (index: number) => makeSong(t, admin, { name: `Queue song ${index}`, artistId });
    songs = [await song(0), await song(1), await song(2), await song(3)];
    alice = await makeUser(t);
    bob = await makeUser(t);
    aliceApp = subsonicApi(t, { apiKey: await apiKeyOf(t, alice), c: 'Symfonium' });
    base = await listening(t.app);
  });

  afterAll(() => {
    for (const live of open) live.close();
  });

  it('names a new web client after its browser and system, and lets its user rename it', async () => {
    const { id, hello } = await webDevice(alice);
    const mine = hello.devices.find((device) => device.id === id);
    expect(mine).toMatchObject({ name: 'Chrome on macOS', kind: 'web', active: true, playback: null });
    const renamed = await t.as(alice).patch(`/api/devices/${id}`, { name: '  Studio  ' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(Device.parse(renamed.json())).toMatchObject({ id, name: 'Studio' });
    const list = DeviceList.parse((await t.as(alice).get('/api/devices')).json());
    expect(list.devices.find((device) => device.id === id)?.name).toBe('Studio');
    expect((await t.as(alice).patch(`/api/devices/${id}`, { name: '' })).statusCode).toBe(400);
  });

  it('keeps the queue a device reports, and another device continues it exactly', async () => {
    const laptop = await webDevice(alice);
    const report = await t.as(alice).put(`/api/devices/${laptop.id}/playback`, {
      state: 'paused',
      songId: songs[2],
      positionMs: 151_000,
      volume: 0.6,
      queue: { songIds: [songs[0], songs[1], songs[2], songs[3]], currentIndex: 2 },
    });
    expect(report.statusCode, report.body).toBe(204);
    const saved = SavedQueue.parse((await t.as(alice).get('/api/queue')).json()).queue;
    expect(saved?.songs.map((song) => song.id)).toEqual(songs);
    expect(saved).toMatchObject({ currentIndex: 2, positionMs: 151_000, device: { id: laptop.id } });

    // Position reports without the queue move it on; a device that did not save it last does not.
    await t.as(alice).put(`/api/devices/${laptop.id}/playback`, {
      state: 'paused',
      songId: songs[2],
      positionMs: 160_000,
      volume: 0.6,
    });
    const phone = await webDevice(alice);
    await t.as(alice).put(`/api/devices/${phone.id}/playback`, {
      state: 'paused',
      songId: songs[0],
      positionMs: 5,
      volume: 1,
    });
    const after = SavedQueue.parse((await t.as(alice).get('/api/queue')).json()).queue;
    expect(after).toMatchObject({ currentIndex: 2, positionMs: 160_000 });

    // While the saver plays, the queue's position moves on with the clock.
    await t.as(alice).put(`/api/devices/${laptop.id}/playback`, {
      state: 'playing',
      songId: songs[2],
      positionMs: 1000,
      volume: 0.6,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const moving = SavedQueue.parse((await t.as(alice).get('/api/queue')).json()).queue;
    expect(moving?.positionMs).toBeGreaterThanOrEqual(1250);
  });

  it('refuses bad reports with the field, and unknown songs never enter the queue', async () => {
    const { id } = await webDevice(alice);
    const outOfQueue = await t.as(alice).put(`/api/devices/${id}/playback`, {
      state: 'playing',
      songId: songs[0],
      positionMs: 0,
      volume: 1,
      queue: { songIds: [songs[0]], currentIndex: 3 },
    });
    expect(outOfQueue.statusCode).toBe(400);
    expect(errorOf(outOfQueue.body).field).toContain('currentIndex');
    const badVolume = await t.as(alice).put(`/api/devices/${id}/playback`, {
      state: 'playing',
      songId: songs[0],
      positionMs: 0,
      volume: 2,
    });
    expect(badVolume.statusCode).toBe(400);
    const withGhost = await t.as(alice).put(`/api/devices/${id}/playback`, {
      state: 'playing',
      songId: songs[1],
      positionMs: 0,
      volume: 1,
      queue: { songIds: [songs[0], 999_999, songs[1]], currentIndex: 2 },
    });
    expect(withGhost.statusCode, withGhost.body).toBe(204);
    const saved = SavedQueue.parse((await t.as(alice).get('/api/queue')).json()).queue;
    expect(saved?.songs.map((song) => song.id)).toEqual([songs[0], songs[1]]);
    expect(saved?.currentIndex).toBe(1);
    // A song that does not exist (or was deleted meanwhile) is not recorded as playing: no foreign-key failure, no 500.
    const ghostSong = await t.as(alice).put(`/api/devices/${id}/playback`, {
      state: 'playing',
      songId: 999_999,
      positionMs: 0,
      volume: 1,
    });
    expect(ghostSong.statusCode, ghostSong.body).toBe(204);
    const shown = DeviceList.parse((await t.as(alice).get('/api/devices')).json()).devices.find((d) => d.id === id);
    expect(shown?.playback).toMatchObject({ state: 'playing', songId: null, songName: null });
  });

  it('shares the queue with Subsonic: the web’s queue is getPlayQueue’s, and an app’s is the web’s', async () => {
    const { id } = await webDevice(alice);
    await t.as(alice).put(`/api/devices/${id}/playback`, {
      state: 'paused',
      songId: songs[1],
      positionMs: 42_000,
      volume: 1,
      queue: { songIds: [songs[3], songs[1]], currentIndex: 1 },
    });
    const byId = (await aliceApp.shape('getPlayQueue', {}, Bodies.getPlayQueue)).playQueue;
    expect(byId.entry?.map((song) => Number(song.id))).toEqual([songs[3], songs[1]]);
    expect(byId).toMatchObject({ current: String(songs[1]), position: 42_000 });
    const byIndex = (await aliceApp.shape('getPlayQueueByIndex', {}, Bodies.getPlayQueueByIndex)).playQueueByIndex;
    expect(byIndex).toMatchObject({ currentIndex: 1, position: 42_000 });

    // The phone app saves a queue holding one song twice, current at the second copy: the web continues there.
    const live = (await webDevice(alice)).live;
    await aliceApp.shape(
      'savePlayQueueByIndex',
      { id: [songs[0], songs[2], songs[0]], currentIndex: 2, position: 7000 },
      Bodies.savePlayQueueByIndex,
    );
    await live.next('queue');
    const saved = SavedQueue.parse((await t.as(alice).get('/api/queue')).json()).queue;
    expect(saved?.songs.map((song) => song.id)).toEqual([songs[0], songs[2], songs[0]]);
    expect(saved).toMatchObject({ currentIndex: 2, positionMs: 7000, device: { name: 'Symfonium' } });
    expect(
      (await aliceApp.shape('getPlayQueueByIndex', {}, Bodies.getPlayQueueByIndex)).playQueueByIndex,
    ).toMatchObject({
      currentIndex: 2,
      changedBy: 'Symfonium',
    });
    // The app is a device; its reportPlayback shows in the devices menu, and moves the queue it saved.
    await aliceApp.json('reportPlayback', { mediaId: songs[0], mediaType: 'song', positionMs: 9000, state: 'playing' });
    const device = await live.next('device', ({ device: d }) => d.kind === 'subsonic');
    expect(device.device).toMatchObject({ name: 'Symfonium', playback: { state: 'playing', songId: songs[0] } });
    expect(SavedQueue.parse((await t.as(alice).get('/api/queue')).json()).queue?.positionMs).toBeGreaterThanOrEqual(
      9000,
    );
  });

  it('savePlayQueueByIndex: currentIndex out of the queue or missing is error 10; no id clears the queue', async () => {
    expect(await aliceApp.error('savePlayQueueByIndex', { id: [songs[0]], currentIndex: 1 }, 10)).toMatch(/0 to 0/);
    await aliceApp.error('savePlayQueueByIndex', { id: [songs[0]] }, 10);
    await aliceApp.error('savePlayQueueByIndex', { currentIndex: 0 }, 10);
    await aliceApp.json('savePlayQueueByIndex', {});
    expect(SavedQueue.parse((await t.as(alice).get('/api/queue')).json()).queue).toBeNull();
    const empty = (await aliceApp.shape('getPlayQueueByIndex', {}, Bodies.getPlayQueueByIndex)).playQueueByIndex;
    expect(empty.entry).toBeUndefined();
  });

  it('carries remote commands to the one device named, and a transfer pauses the others', async () => {
    const laptop = await webDevice(alice);
    const phone = await webDevice(alice);
    await t.as(alice).put(`/api/devices/${laptop.id}/playback`, {
      state: 'playing',
      songId: songs[1],
      positionMs: 20_000,
      volume: 1,
      queue: { songIds: songs, currentIndex: 1 },
    });
    const seek = await t.as(alice).post(`/api/devices/${laptop.id}/commands`, { type: 'seek', positionMs: 3000 });
    expect(seek.statusCode, seek.body).toBe(204);
    expect((await laptop.live.next('command')).command).toEqual({ type: 'seek', positionMs: 3000 });
    expect((await t.as(alice).post(`/api/devices/${laptop.id}/commands`, { type: 'rewind' })).statusCode).toBe(400);

    expect((await t.as(alice).post(`/api/devices/${phone.id}/transfer`)).statusCode).toBe(204);
    const takeOver = await phone.live.next('takeOver');
    expect(takeOver.currentIndex).toBe(1);
    expect(takeOver.positionMs).toBeGreaterThanOrEqual(20_000);
    expect((await laptop.live.next('command')).command).toEqual({ type: 'pause' });
    // Neither got what was meant for the other.
    expect(laptop.live.frames.some((frame) => frame.event === 'takeOver')).toBe(false);
    expect(phone.live.frames.some((frame) => frame.event === 'command')).toBe(false);
  });

  it('a Subsonic app cannot be controlled (409), and nobody else sees or reaches a device (404)', async () => {
    await aliceApp.json('reportPlayback', { mediaId: songs[0], mediaType: 'song', positionMs: 1, state: 'paused' });
    const list = DeviceList.parse((await t.as(alice).get('/api/devices')).json()).devices;
    const app = list.find((device) => device.kind === 'subsonic');
    const web = list.find((device) => device.kind === 'web');
    if (app === undefined || web === undefined) throw new Error('devices missing');
    expect((await t.as(alice).post(`/api/devices/${app.id}/commands`, { type: 'pause' })).statusCode).toBe(409);

    const admin = await makeAdmin(t);
    for (const other of [bob, admin]) {
      expect(DeviceList.parse((await t.as(other).get('/api/devices')).json()).devices.map((d) => d.id)).not.toContain(
        web.id,
      );
      for (const answer of [
        await t.as(other).patch(`/api/devices/${web.id}`, { name: 'Mine now' }),
        await t.as(other).post(`/api/devices/${web.id}/commands`, { type: 'pause' }),
        await t.as(other).post(`/api/devices/${web.id}/transfer`),
        await t
          .as(other)
          .put(`/api/devices/${web.id}/playback`, { state: 'paused', songId: null, positionMs: 0, volume: 1 }),
      ]) {
        expect(answer.statusCode).toBe(404);
      }
    }
    const bobQueue = SavedQueue.parse((await t.as(bob).get('/api/queue')).json());
    expect(bobQueue.queue).toBeNull();
  });

  it('the live channel: 401 without a session, 400 without a device key, and never another user’s events', async () => {
    expect((await openLive(base, null, newKey())).status).toBe(401);
    const badKey = await openLive(base, alice.cookie, 'short');
    expect(badKey.status).toBe(400);
    const bobs = await webDevice(bob);
    const alices = await webDevice(alice);
    expect(bobs.hello.devices.map((device) => device.id)).not.toContain(alices.id);
    await t.as(alice).put(`/api/devices/${alices.id}/playback`, {
      state: 'playing',
      songId: songs[0],
      positionMs: 0,
      volume: 1,
      queue: { songIds: [songs[0]], currentIndex: 0 },
    });
    await t.as(alice).post(`/api/devices/${alices.id}/commands`, { type: 'pause' });
    await alices.live.next('command');
    // Bob's own change comes after Alice's: had hers reached him, they would be before it.
    await t.as(bob).patch(`/api/devices/${bobs.id}`, { name: 'Bob’s' });
    await bobs.live.next('device', ({ device }) => device.name === 'Bob’s');
    const seen = bobs.live.frames.flatMap((frame) =>
      frame.event === 'device' ? [(frame.data as { device: { id: number } }).device.id] : [],
    );
    expect(new Set(seen)).toEqual(new Set([bobs.id]));
    expect(bobs.live.frames.map((frame) => frame.event)).not.toContain('queue');
    expect(bobs.live.frames.map((frame) => frame.event)).not.toContain('command');
  });

  it('a reconnect is a resync: a fresh hello with what changed while away; a closed channel marks the device gone', async () => {
    const key = newKey();
    const first = await openLive(base, alice.cookie, key);
    const { deviceId } = await first.next('hello');
    const watcher = await webDevice(alice);
    first.close();
    const gone = await watcher.live.next('device', ({ device }) => device.id === deviceId && !device.active);
    expect(gone.device.active).toBe(false);
    await t.as(alice).patch(`/api/devices/${deviceId}`, { name: 'Renamed while away' });
    const again = await openLive(base, alice.cookie, key);
    open.push(again);
    const hello = await again.next('hello');
    expect(hello.deviceId).toBe(deviceId);
    expect(hello.devices.find((device) => device.id === deviceId)).toMatchObject({
      name: 'Renamed while away',
      active: true,
    });
  });

  it('keeps a user’s devices to DEVICES_PER_USER_MAX: a new one replaces the one seen longest ago', async () => {
    const carol = await makeUser(t);
    for (let index = 0; index < 32; index += 1) {
      const live = await openLive(base, carol.cookie, newKey());
      await live.next('hello');
      live.close();
    }
    const list = DeviceList.parse((await t.as(carol).get('/api/devices')).json()).devices;
    expect(list).toHaveLength(30);
  });
});

it('names devices after the browser and system of their user agent', () => {
  expect(deviceNameFromAgent(CHROME_ON_MAC)).toBe('Chrome on macOS');
  expect(deviceNameFromAgent('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe(
    'Firefox on Linux',
  );
  expect(
    deviceNameFromAgent(
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36 Edg/126.0',
    ),
  ).toBe('Edge on Windows');
  expect(
    deviceNameFromAgent(
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Version/17.5 Safari/604.1',
    ),
  ).toBe('Safari on iPhone');
  expect(deviceNameFromAgent(undefined)).toBe('Web browser');
});
