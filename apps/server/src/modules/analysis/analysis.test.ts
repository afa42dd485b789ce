import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AnalysisProgress } from '@tonearm/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeArtist, makeSong, makeUser, type TestUser } from '../../../test/factories.js';
import { FFMPEG, ffmpegTone, realTimeFfmpeg, requireFfmpeg } from '../../../test/ffmpeg.js';
import type { TestApp } from '../../../test/harness.js';
import { toneWav } from '../../../test/media.js';
import { storedMediaSources } from '../../media/media-source.js';
import { createAnalysisRepository } from './analysis.repository.js';
import { AnalysisService } from './analysis.service.js';
import { FEATURE_LENGTH, FEATURE_VERSION } from './feature-layout.js';

/*
 * The background analysis over a real database (both dialects), real blobs and the real ffmpeg and thread: what it
 * writes, that it resumes, that it does not redo failures, that two instances never analyse one song twice, that it
 * stops cleanly, what wakes it, and what administrators see of it.
 */

let scratch = '';
let slowFfmpeg = '';

beforeAll(async () => {
  await requireFfmpeg();
  scratch = await mkdtemp(path.join(tmpdir(), 'tonearm-analysis-'));
  // ffmpeg reading its input at real-time speed: an analysis that lasts long enough to be stopped in the middle.
  slowFfmpeg = await realTimeFfmpeg(scratch);
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const quietLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** An analysis of its own over the test app's database and blobs (another instance, or the same after a restart). */
function analysisOf(t: TestApp, options: { concurrency?: number; ffmpeg?: string; checkMs?: number } = {}) {
  if (t.store === null) throw new Error('the test app has no blob store');
  return new AnalysisService({
    repository: createAnalysisRepository(t.db, t.dialect),
    sources: storedMediaSources(t.store),
    ffmpegPath: options.ffmpeg ?? FFMPEG,
    config: { enabled: true, concurrency: options.concurrency ?? 1 },
    log: quietLog,
    ...(options.checkMs === undefined ? {} : { catalogueCheckMs: options.checkMs }),
  });
}

async function rowsOf(t: TestApp) {
  return t.db.selectFrom('song_features').selectAll().orderBy('song_id').execute();
}

/** Uploads `count` songs of distinct tones (each `seconds` long) and answers their ids. */
async function uploadSongs(t: TestApp, admin: TestUser, count: number, seconds = 0.5): Promise<number[]> {
  const artistId = await makeArtist(t, admin, `Band ${String(Date.now())}`);
  const ids: number[] = [];
  for (let n = 0; n < count; n++) {
    ids.push(await makeSong(t, admin, { artistId, audio: toneWav(300 + 37 * n, seconds) }));
  }
  return ids;
}

/** ffmpeg processes that are children of this test process. */
async function ffmpegChildren(): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid …
    const match = /^\d+ \((.*)\) \S+ (\d+)/.exec(stat);
    if (match?.[1] === 'ffmpeg' && Number(match[2]) === process.pid) found.push(Number(entry));
  }
  return found;
}

async function until(check: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const off = { env: { ANALYSIS: '0' } };
const on = { env: { ANALYSIS: '1' } };

describeEachDialect('the background audio analysis (%s)', { uses: 'nothing' }, (t) => {
  it('writes each song a vector of the layout, and a failed row for a file ffmpeg cannot read, not retried later', () =>
    t.withApp(off, async (app) => {
      const admin = await makeAdmin(app);
      const [good, bad] = await uploadSongs(app, admin, 2);
      const badKey = (
        await app.db
          .selectFrom('songs')
          .select('audio_key')
          .where('id', '=', bad ?? 0)
          .executeTakeFirst()
      )?.audio_key;
      await writeFile(app.store?.localPath('audio', badKey ?? '') ?? '', 'not audio any more');

      const first = analysisOf(app);
      await first.start();
      await first.settled();
      await first.stop();
      const rows = await rowsOf(app);
      expect(rows.map((row) => row.song_id)).toEqual([good, bad]);
      const [vector, failure] = rows;
      expect(vector?.version).toBe(FEATURE_VERSION);
      expect(vector?.vector?.length).toBe(FEATURE_LENGTH * 4);
      expect(vector?.failed).toBeNull();
      expect(failure?.vector).toBeNull();
      expect(failure?.failed).toMatch(/invalid|error|could not|no such|moov|header/i);
      expect(first.analysedHere).toBe(2);

      // After a restart: nothing is pending, the failure included; nothing is done again.
      const again = analysisOf(app);
      await again.start();
      await again.settled();
      await again.stop();
      expect(again.analysedHere).toBe(0);
      expect(await rowsOf(app)).toEqual(rows);
    }));

  it('resumes where a stopped analysis left off, keeping what it wrote', () =>
    t.withApp(off, async (app) => {
      const admin = await makeAdmin(app);
      const ids = await uploadSongs(app, admin, 4);
      const slow = analysisOf(app, { ffmpeg: slowFfmpeg });
      await slow.start();
      await until(async () => (await rowsOf(app)).length >= 1, 'the first song analysed');
      await slow.stop();
      const before = await rowsOf(app);
      expect(before.length).toBeGreaterThanOrEqual(1);
      expect(before.length).toBeLessThan(4);

      const resumed = analysisOf(app);
      await resumed.start();
      await resumed.settled();
      await resumed.stop();
      const after = await rowsOf(app);
      expect(after.map((row) => row.song_id)).toEqual(ids);
      expect(resumed.analysedHere).toBe(4 - before.length);
      for (const row of before) expect(after.find((kept) => kept.song_id === row.song_id)).toEqual(row);
    }));

  it('stops in the middle of a song: ffmpeg is killed at once, and nothing half-done is written', () =>
    t.withApp(off, async (app) => {
      const admin = await makeAdmin(app);
      await uploadSongs(app, admin, 1, 30);
      const slow = analysisOf(app, { ffmpeg: slowFfmpeg });
      await slow.start();
      await until(async () => (await ffmpegChildren()).length > 0, 'ffmpeg to start');
      const stopping = Date.now();
      await slow.stop();
      expect(Date.now() - stopping).toBeLessThan(3000);
      await until(async () => (await ffmpegChildren()).length === 0, 'ffmpeg to be gone', 3000);
      expect(await rowsOf(app)).toEqual([]);
      expect(slow.analysedHere).toBe(0);
    }));

  it('analyses each song once when two instances work on one database at the same time', () =>
    t.withApp(off, async (app) => {
      const admin = await makeAdmin(app);
      const ids = await uploadSongs(app, admin, 6);
      const instances = [analysisOf(app, { concurrency: 2 }), analysisOf(app, { concurrency: 2 })];
      await Promise.all(instances.map((instance) => instance.start()));
      await Promise.all(instances.map((instance) => instance.settled()));
      await Promise.all(instances.map((instance) => instance.stop()));
      expect((await rowsOf(app)).map((row) => row.song_id)).toEqual(ids);
      expect(instances.map((instance) => instance.analysedHere).reduce((a, b) => a + b, 0)).toBe(6);
    }));

  it('takes a song again when its audio changed, and leaves a song whose file is not there pending', () =>
    t.withApp(off, async (app) => {
      const admin = await makeAdmin(app);
      const [id] = await uploadSongs(app, admin, 1);
      const first = analysisOf(app);
      await first.start();
      await first.settled();
      await first.stop();
      const repository = createAnalysisRepository(app.db, app.dialect);
      expect(await repository.counts(FEATURE_VERSION)).toEqual({ songs: 1, analysed: 1, failed: 0 });

      // A new key (a library file changed on disk gets one) whose bytes are not there: pending, never failed.
      await app.db
        .updateTable('songs')
        .set({ audio_key: `${'b'.repeat(64)}.wav` })
        .where('id', '=', id ?? 0)
        .execute();
      expect(await repository.counts(FEATURE_VERSION)).toEqual({ songs: 1, analysed: 0, failed: 0 });
      const second = analysisOf(app);
      await second.start();
      await second.settled();
      await second.stop();
      expect(second.analysedHere).toBe(0);
      expect(await repository.counts(FEATURE_VERSION)).toEqual({ songs: 1, analysed: 0, failed: 0 });
    }));

  it('keeps nothing of a song deleted while it was analysed', () =>
    t.withApp(off, async (app) => {
      const admin = await makeAdmin(app);
      const [id = 0] = await uploadSongs(app, admin, 1);
      const repository = createAnalysisRepository(app.db, app.dialect);
      const song = { id, audioKey: 'x.wav', durationMs: 500 };
      let saved: boolean | null = null;
      const claimed = await repository.claim(id, async (claim) => {
        await app.db.deleteFrom('songs').where('id', '=', id).execute();
        saved = await claim.save(FEATURE_VERSION, song, { failed: 'gone' }, new Date().toISOString());
      });
      expect(claimed).toBe(true);
      expect(saved).toBe(false);
      expect(await rowsOf(app)).toEqual([]);
    }));

  it("is woken by another process's new songs through catalogue_version", () =>
    t.withApp(off, async (app) => {
      const watching = analysisOf(app, { checkMs: 100 });
      await watching.start();
      await watching.settled();
      const admin = await makeAdmin(app);
      // The app's own analysis is off: only the look at catalogue_version can wake this one.
      await uploadSongs(app, admin, 2);
      await until(async () => (await rowsOf(app)).length === 2, 'the new songs analysed');
      await watching.stop();
    }));
});

describeEachDialect('the analysis of the app (%s)', { uses: 'nothing' }, (t) => {
  it('analyses an upload at once and shows administrators its progress; others are refused', () =>
    t.withApp(on, async (app) => {
      await app.app.ready();
      const admin = await makeAdmin(app);
      await uploadSongs(app, admin, 2);
      await app.composition.services.analysis.settled();
      const response = await app.as(admin).get('/api/analysis');
      expect(response.statusCode).toBe(200);
      expect(response.json<AnalysisProgress>()).toMatchObject({
        state: 'idle',
        version: FEATURE_VERSION,
        songs: 2,
        analysed: 2,
        failed: 0,
        pending: 0,
        recentFailures: [],
      });
      expect(response.json<AnalysisProgress>().songsPerSecond).toBeGreaterThan(0);
      const listener = await makeUser(app);
      expect((await app.as(listener).get('/api/analysis')).statusCode).toBe(403);
      expect((await app.as(null).get('/api/analysis')).statusCode).toBe(401);
    }));

  it('shows a failure by song and reason, and the songs waiting while the analysis is off', () =>
    t.withApp(off, async (app) => {
      const admin = await makeAdmin(app);
      const [, bad = 0] = await uploadSongs(app, admin, 3);
      const key = (await app.db.selectFrom('songs').select('audio_key').where('id', '=', bad).executeTakeFirst())
        ?.audio_key;
      const waiting = (await app.as(admin).get('/api/analysis')).json<AnalysisProgress>();
      expect(waiting).toMatchObject({ state: 'off', songs: 3, analysed: 0, failed: 0, pending: 3 });
      await writeFile(app.store?.localPath('audio', key ?? '') ?? '', 'not audio');
      const instance = analysisOf(app);
      await instance.start();
      await instance.settled();
      await instance.stop();
      const done = (await app.as(admin).get('/api/analysis')).json<AnalysisProgress>();
      expect(done).toMatchObject({ songs: 3, analysed: 2, failed: 1, pending: 0 });
      expect(done.recentFailures.map((failure) => failure.songId)).toEqual([bad]);
      expect(done.recentFailures[0]?.reason).not.toBe('');
    }));

  it('analyses the songs a library scan finds', () =>
    t.withApp(on, async (app) => {
      await app.app.ready();
      const folder = await mkdtemp(path.join(scratch, 'library-'));
      await writeFile(path.join(folder, 'one.flac'), await ffmpegTone(scratch, 2, 'flac', 330));
      await writeFile(path.join(folder, 'two.flac'), await ffmpegTone(scratch, 2, 'flac', 550));
      const admin = await makeAdmin(app);
      expect((await app.as(admin).post('/api/libraries', { path: folder })).statusCode).toBe(201);
      await app.composition.services.libraries.settled();
      await app.composition.services.analysis.settled();
      const rows = await rowsOf(app);
      expect(rows).toHaveLength(2);
      expect(rows.every((row) => row.vector?.length === FEATURE_LENGTH * 4)).toBe(true);
    }));

  it('stops with the app: app.close() kills the ffmpeg of a song under way and writes nothing', () =>
    t.withApp({ env: { ANALYSIS: '1', FFMPEG_PATH: slowFfmpeg } }, async (app) => {
      await app.app.ready();
      const admin = await makeAdmin(app);
      await uploadSongs(app, admin, 1, 30);
      await until(async () => (await ffmpegChildren()).length > 0, 'the analysis to start ffmpeg');
      await app.app.close();
      await until(async () => (await ffmpegChildren()).length === 0, 'ffmpeg to be gone', 3000);
      expect(await rowsOf(app)).toEqual([]);
    }));
});
