import { createHook } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestApp, testDatabases } from '../test/harness.js';
import { makeAdmin, makeArtist, makeSong } from '../test/factories.js';

/**
 * The kinds of resource that keep working after their owner is gone: timers (ref'd or not), watchers, workers, child
 * processes, sockets and servers. Promises and one-off requests are left out: they end by themselves.
 */
const LASTING = new Set([
  'Timeout',
  'FSEVENTWRAP',
  'STATWATCHER',
  'WORKER',
  'MESSAGEPORT',
  'PROCESSWRAP',
  'PIPEWRAP',
  'TCPWRAP',
  'TCPSERVERWRAP',
  'UDPWRAP',
]);

/** This server's own code, as opposed to the test runner's or the database driver's. */
const SERVER_SOURCE = /apps\/server\/src\/(?!.*\.test\.ts)/;
const DATABASE_DRIVER = /node_modules\/(pg|pg-pool|better-sqlite3)\//;
/** Node's own process-wide cache of the Date header (one unref'd timer, whoever writes a response first). */
const NODE_DATE_CACHE = 'at utcDate (node:internal/http';

interface Made {
  type: string;
  stack: string;
  /** Made after the app was closed. */
  late: boolean;
}

/**
 * Watches every lasting resource made by the server's code (by the stack that made it; `process.getActiveResourcesInfo`
 * alone misses unref'd timers): which are still alive, and which were made after `closed()`.
 */
function watchResources() {
  const alive = new Map<number, Made>();
  const madeLate: Made[] = [];
  let closed = false;
  const hook = createHook({
    init(asyncId, type) {
      if (!LASTING.has(type)) return;
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 60;
      const stack = new Error().stack ?? '';
      Error.stackTraceLimit = limit;
      if (!SERVER_SOURCE.test(stack) || DATABASE_DRIVER.test(stack) || stack.includes(NODE_DATE_CACHE)) return;
      const made = { type, stack, late: closed };
      alive.set(asyncId, made);
      if (closed) madeLate.push(made);
    },
    destroy(asyncId) {
      alive.delete(asyncId);
    },
  });
  hook.enable();
  return {
    closed() {
      closed = true;
    },
    report() {
      hook.disable();
      const show = (made: Made) => `${made.type}\n${made.stack.split('\n').slice(2, 12).join('\n')}`;
      return { alive: [...alive.values()].map(show), madeLate: madeLate.map(show) };
    },
  };
}

describe.each(testDatabases())('closing an app (%s)', (dialect) => {
  it('leaves no timer, watcher, worker, process or connection of its own behind', async () => {
    const watch = watchResources();
    const before = new Set(process.getActiveResourcesInfo());
    // The audio analysis on (the harness turns it off): its ffmpeg and thread must be gone after close too.
    const t = await createTestApp(dialect, { env: { ANALYSIS: '1' } });
    let closed = false;
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const admin = await makeAdmin(t);
      const artistId = await makeArtist(t, admin, 'Leftover band');
      const songId = await makeSong(t, admin, { name: 'Leftover waltz', artistId });
      // A bulk write (as an import makes) leaves SQLite's search vocabulary a long queue to fold in the background
      // (PostgreSQL's triggers keep it: a few names do there).
      const names = dialect === 'sqlite' ? 20_000 : 200;
      await sql`with recursive g(x) as (select 1 union all select x + 1 from g where x < ${names})
        insert into artists (name) select 'artist ' || x || ' zymurgy ' || (x * 7919) from g`.execute(t.db);
      // Every part that searches, streams or pages: the search, the song pages' `q`, the shuffle, /media, Subsonic.
      const as = t.as(admin);
      expect((await as.get('/api/search?q=zymurgi')).statusCode).toBe(200);
      expect((await as.get('/api/songs/page?q=zymurgi')).statusCode).toBe(200);
      expect((await as.get('/api/songs/page?seed=7')).statusCode).toBe(200);
      const song = (await as.get(`/api/songs/${String(songId)}`)).json<{ link: string }>();
      expect((await as.get(song.link)).statusCode).toBe(200);
      // The radio, whose engine has a thread of its own.
      expect((await as.post('/api/radio/next', { seedIds: [songId], historyIds: [], count: 5 })).statusCode).toBe(200);
      await t.app.close();
      closed = true;
      watch.closed();
      // With the database still open: whatever the app left running would go on working now.
      await sleep(300);
    } finally {
      if (!closed) await t.app.close();
      await t.close();
    }
    await sleep(50);
    const { alive, madeLate } = watch.report();
    expect(madeLate, 'made by the server after app.close()').toEqual([]);
    expect(alive, 'still alive after app.close()').toEqual([]);
    const after = process.getActiveResourcesInfo().filter((kind) => !before.has(kind));
    expect(after.filter((kind) => LASTING.has(kind))).toEqual([]);
  });
});
