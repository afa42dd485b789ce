// `npm run bench:analysis`: the background audio analysis (issue 28) on this machine: how many songs a second it
// analyses, and what it costs a listener meanwhile. A library of BENCH_SONGS songs (600), hard links to the style
// corpus's files (bench/style-corpus.mjs: BENCH_DISTINCT_PER_STYLE files of each of six styles, BENCH_SONG_SECONDS
// long, synthesised and encoded by ffmpeg in four formats; 240 s, so that each song gives the analysis its whole 60 s
// excerpt from the middle as a real song does), is added to the built server started with ANALYSIS=1 (SQLite). Once its
// scan has ended, the analysis runs alone for BENCH_WARMUP seconds (5), then a 20-song catalogue page is driven with
// wrk at 8 connections for BENCH_DURATION (15s) while it runs; the analysis is then followed to its end through
// GET /api/analysis (the progress administrators see), and the same page is driven again with the analysis idle.
// Reports songs/s alone, songs/s during the page's load, and overall (from the scan's end to the last song), the
// page's req/s, p50 and p99 during the analysis and idle, with their ratio, and the server's peak RSS (its analysis
// thread included; ffmpeg's short-lived processes are not). Writes bench/results/analysis.md. Bounded in time; cleans up.
//
// Settings: BENCH_SONGS (600), BENCH_SONG_SECONDS (240), BENCH_DISTINCT_PER_STYLE (2), BENCH_DURATION (15s),
// BENCH_WARMUP (5), ANALYSIS_CONCURRENCY (the server's default, 1; passed to the server). A quick check that it runs:
// BENCH_SONGS=40 BENCH_SONG_SECONDS=30 BENCH_DURATION=3s npm run bench:analysis. Runs under tsx (the helpers read the
// server's database with its TypeScript).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureServerBuilt } from '../scripts/build-server.mjs';
import { root } from '../scripts/lib.mjs';
import { addLibrary, analysisProgress, linkFiles, startAnalysisServer, waitForAnalysis } from './analysis-server.mjs';
import { ensureStyleCorpus } from './style-corpus.mjs';
import { STYLES } from './style-synth.mjs';
import { parseDuration, runBench, settle, treeMiB, wrk } from './support.mjs';

const SONGS = Number(process.env.BENCH_SONGS ?? 600);
const SECONDS = Number(process.env.BENCH_SONG_SECONDS ?? 240);
const DISTINCT_PER_STYLE = Number(process.env.BENCH_DISTINCT_PER_STYLE ?? 2);
const DURATION = process.env.BENCH_DURATION ?? '15s';
const WARMUP_MS = Number(process.env.BENCH_WARMUP ?? 5) * 1000;
const CONNECTIONS = 8;
const PAGE = '/api/songs/page?limit=20';
/** The most time a song may take, for the watchdog and the wait for the end (a loaded 2-core machine: ~0.5 s). */
const SONG_MS_MAX = 5000;

const work = mkdtempSync(join(tmpdir(), 'tonearm-analysis-'));
const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '—');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Songs done (analysed or failed) and the moment it was read. */
async function done(ctx) {
  const progress = await analysisProgress(ctx);
  return { at: performance.now(), count: progress.analysed + progress.failed, progress };
}

async function main() {
  const build = await ensureServerBuilt();
  if (build.code !== 0) throw new Error('the server did not build');
  const corpus = await ensureStyleCorpus({ perStyle: DISTINCT_PER_STYLE, seconds: SECONDS });
  const library = join(work, 'library');
  const names = Array.from(
    { length: SONGS },
    (_, i) => `${String(i + 1).padStart(6, '0')}-${corpus.manifest[i % corpus.manifest.length].file}`,
  );
  linkFiles(
    corpus.manifest.map((song) => join(corpus.files, song.file)),
    library,
    names,
  );
  const ctx = await startAnalysisServer({ work, name: 'analysis' });
  try {
    await addLibrary(ctx, library);
    const start = await done(ctx);
    if (start.progress.songs !== SONGS) throw new Error(`the scan made ${start.progress.songs} songs of ${SONGS}`);
    if (start.progress.state === 'off') throw new Error('the analysis is off (is ffmpeg there?)');
    const headers = { cookie: ctx.cookie };
    await sleep(WARMUP_MS);
    const loadStart = await done(ctx);
    const during = await wrk(`${ctx.base}${PAGE}`, { connections: CONNECTIONS, duration: DURATION, headers });
    const loadEnd = await done(ctx);
    if (loadEnd.progress.pending === 0) {
      throw new Error(`the analysis ended before the page's load did: more BENCH_SONGS, or a shorter BENCH_DURATION`);
    }
    const end = await waitForAnalysis(ctx, { timeoutMs: SONGS * SONG_MS_MAX, pollMs: 250 });
    const endAt = performance.now();
    if (end.failed > 0) throw new Error(`${end.failed} songs failed: ${JSON.stringify(end.recentFailures)}`);
    const peak = treeMiB(ctx.server.pid, 'VmHWM');
    await settle(ctx.base);
    const idle = await wrk(`${ctx.base}${PAGE}`, { connections: CONNECTIONS, duration: DURATION, headers });
    for (const result of [during, idle]) if (result.non2xx > 0) throw new Error(`${result.non2xx} non-2xx answers`);

    const total = end.analysed + end.failed;
    const rate = (songs, ms) => songs / (ms / 1000);
    const loadSongs = loadEnd.count - loadStart.count;
    const loadMs = loadEnd.at - loadStart.at;
    const aloneSongs = total - start.count - loadSongs;
    const aloneMs = endAt - start.at - loadMs;
    const date = new Date().toISOString().slice(0, 10);
    const concurrency = process.env.ANALYSIS_CONCURRENCY ?? '1 (default)';
    const lines = [
      `Background analysis (${date}): ${SONGS} songs (hard links to ${corpus.manifest.length} files of the style ` +
        `corpus, ${DISTINCT_PER_STYLE} a style of ${STYLES.length}, ${SECONDS} s each), SQLite, ` +
        `ANALYSIS_CONCURRENCY=${concurrency}; the page with wrk -t2 -c${CONNECTIONS} -d${DURATION} on 127.0.0.1.`,
      '',
      '| analysis | songs | s | songs/s |',
      '| --- | ---: | ---: | ---: |',
      `| alone (from the scan's end to the last song, the page's load left out) | ${aloneSongs} | ` +
        `${fmt(aloneMs / 1000, 1)} | ${fmt(rate(aloneSongs, aloneMs), 2)} |`,
      `| during the page's load | ${loadSongs} | ${fmt(loadMs / 1000, 1)} | ${fmt(rate(loadSongs, loadMs), 2)} |`,
      `| overall | ${total - start.count} | ${fmt((endAt - start.at) / 1000, 1)} | ` +
        `${fmt(rate(total - start.count, endAt - start.at), 2)} |`,
      '',
      `| GET ${PAGE}, ${CONNECTIONS} connections | req/s | p50 ms | p99 ms |`,
      '| --- | ---: | ---: | ---: |',
      `| while the analysis runs | ${fmt(during.rps)} | ${fmt(during.p50, 1)} | ${fmt(during.p99, 1)} |`,
      `| analysis idle | ${fmt(idle.rps)} | ${fmt(idle.p50, 1)} | ${fmt(idle.p99, 1)} |`,
      `| running / idle | ${fmt(during.rps / idle.rps, 2)}× | ${fmt(during.p50 / idle.p50, 2)}× | ` +
        `${fmt(during.p99 / idle.p99, 2)}× |`,
      '',
      `Songs analysed during the scan (before the clock started): ${start.count}. The server's peak RSS (its ` +
        `analysis thread included, not ffmpeg): ${fmt(peak)} MiB.`,
    ];
    const table = lines.join('\n');
    console.log(`\n${table}`);
    mkdirSync(join(root, 'bench/results'), { recursive: true });
    writeFileSync(join(root, 'bench/results/analysis.md'), `${table}\n`);
  } finally {
    await ctx.stop();
  }
}

await runBench('bench:analysis', main, {
  watchdogMs: (SONGS * (SONG_MS_MAX / 1000) + 2 * parseDuration(DURATION) + 1200) * 1000,
  cleanUp: () => rmSync(work, { recursive: true, force: true }),
});
