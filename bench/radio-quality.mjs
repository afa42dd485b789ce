// `npm run bench:radio-quality`: whether song radio keeps to the seed's style when only the audio can tell. The style
// corpus (bench/style-corpus.mjs: BENCH_PER_STYLE songs of each of six styles, BENCH_SONG_SECONDS long, synthesised,
// without any tag, under random file names in one folder) becomes a library of the built server (SQLite, the analysis
// on); once its scan and the analysis have ended, every song is a seed: the server's radio (POST /api/radio/next, a
// fresh radio of that one song, as "Start radio" asks for it) answers its first songs, and the share of the first 20
// after the seed that are in the seed's style is averaged per style. Issue 28's target: at least 80 % for every style.
// Beside it, as a reference, the same share for the 20 nearest songs by audio similarity alone (feature-layout.ts's
// comparable vectors, exact search over the stored vectors): what the analysis's features allow before the radio's
// index and blend. Prints the table, writes it to bench/results/radio-quality.md, and exits non-zero when a style
// misses the target.
//
// Settings: BENCH_PER_STYLE (30), BENCH_SONG_SECONDS (40), ANALYSIS_CONCURRENCY (the server's default, 1). A quick
// check that it runs: BENCH_PER_STYLE=5 BENCH_SONG_SECONDS=15 npm run bench:radio-quality. Runs under tsx (it reads the
// server's database and feature layout with the server's TypeScript).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  comparable,
  decodeVector,
  FEATURE_VERSION,
  featureStats,
} from '../apps/server/src/modules/analysis/feature-layout.ts';
import { ensureServerBuilt } from '../scripts/build-server.mjs';
import { root } from '../scripts/lib.mjs';
import {
  addLibrary,
  linkFiles,
  queryDatabase,
  songIdsByPath,
  startAnalysisServer,
  waitForAnalysis,
} from './analysis-server.mjs';
import { ensureStyleCorpus } from './style-corpus.mjs';
import { STYLES } from './style-synth.mjs';
import { post, runBench } from './support.mjs';

const PER_STYLE = Number(process.env.BENCH_PER_STYLE ?? 30);
const SECONDS = Number(process.env.BENCH_SONG_SECONDS ?? 40);
const NEIGHBOURS = 20;
const TARGET = 0.8;
const work = mkdtempSync(join(tmpdir(), 'tonearm-radio-quality-'));
const percent = (share) => `${(share * 100).toFixed(1)} %`;

/**
 * The first 20 songs the server's radio plays after `seedId`: a fresh radio of that one song (no history), asked with
 * the administrator's session; it answers the seed first, which is left out.
 */
async function radioTop20(ctx, seedId) {
  const response = await post(
    `${ctx.base}/api/radio/next`,
    { seedIds: [seedId], historyIds: [], count: NEIGHBOURS + 1 },
    { cookie: ctx.cookie },
  );
  const { songIds } = await response.json();
  return songIds.filter((id) => id !== seedId).slice(0, NEIGHBOURS);
}

/** The reference: the 20 nearest songs to `seedId` by audio similarity alone (dot product of comparable vectors). */
async function audioTop20(ctx, seedId) {
  ctx.vectors ??= await comparableVectors(ctx);
  const seed = ctx.vectors.get(seedId);
  if (seed === undefined) throw new Error(`song ${seedId} has no vector`);
  const scored = [];
  for (const [id, vector] of ctx.vectors) {
    if (id === seedId) continue;
    let dot = 0;
    for (let d = 0; d < vector.length; d++) dot += vector[d] * seed[d];
    scored.push([dot, id]);
  }
  scored.sort((a, b) => b[0] - a[0]);
  return scored.slice(0, NEIGHBOURS).map(([, id]) => id);
}

/** Every song's comparable vector (the analysis's current version), by song id. */
async function comparableVectors(ctx) {
  const rows = await queryDatabase(ctx, 'select song_id, vector from song_features where version = $1', [
    FEATURE_VERSION,
  ]);
  const raw = new Map();
  for (const row of rows) {
    const vector = row.vector === null ? null : decodeVector(new Uint8Array(row.vector));
    if (vector !== null) raw.set(Number(row.song_id), vector);
  }
  const stats = featureStats(raw.values());
  return new Map([...raw].map(([id, vector]) => [id, comparable(vector, stats)]));
}

const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

/**
 * Per style: seeds; the mean share of their radio's first 20 in their style (a song the radio did not answer counts as
 * not in it), the worst seed's share and the songs answered on average; the same mean share by audio alone.
 */
async function measure(ctx, styleOf) {
  const byStyle = new Map(STYLES.map((style) => [style, { radio: [], answered: [], audio: [] }]));
  const share = (ids, style) => ids.filter((other) => styleOf.get(other) === style).length / NEIGHBOURS;
  for (const [id, style] of styleOf) {
    const entry = byStyle.get(style);
    const radio = await radioTop20(ctx, id);
    entry.radio.push(share(radio, style));
    entry.answered.push(radio.length);
    entry.audio.push(share(await audioTop20(ctx, id), style));
  }
  return STYLES.map((style) => {
    const { radio, answered, audio } = byStyle.get(style);
    return {
      style,
      seeds: radio.length,
      mean: mean(radio),
      worst: Math.min(...radio),
      answered: mean(answered),
      audio: mean(audio),
    };
  });
}

function report(rows, corpus, timing) {
  const date = new Date().toISOString().slice(0, 10);
  const lines = [
    `Radio quality (${date}): ${corpus.manifest.length} synthesised songs, ${PER_STYLE} a style, ${SECONDS} s each, ` +
      `no tags; the first ${NEIGHBOURS} songs after the seed of each seed's radio (POST /api/radio/next), and as a ` +
      `reference the ${NEIGHBOURS} nearest by audio similarity alone (exact, feature-layout.ts). Analysis: ` +
      `${timing.songs} songs in ${timing.seconds.toFixed(1)} s after the scan ` +
      `(${(timing.songs / timing.seconds).toFixed(2)} songs/s).` +
      (PER_STYLE - 1 < NEIGHBOURS
        ? ` With ${PER_STYLE} songs a style, at most ${percent((PER_STYLE - 1) / NEIGHBOURS)} of ${NEIGHBOURS} can share ` +
          `the seed's style: the target needs at least ${Math.ceil(TARGET * NEIGHBOURS) + 1} a style.`
        : ''),
    '',
    `| style | seeds | radio: same style in the first ${NEIGHBOURS} (mean) | radio: worst seed | ` +
      `radio: songs answered (mean) | audio alone (reference, mean) | target ≥ 80 % |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | :---: |',
    ...rows.map(
      (row) =>
        `| ${row.style} | ${row.seeds} | ${percent(row.mean)} | ${percent(row.worst)} | ${row.answered.toFixed(1)} | ` +
        `${percent(row.audio)} | ${row.mean >= TARGET ? 'met' : 'MISSED'} |`,
    ),
  ];
  return lines.join('\n');
}

async function main() {
  const build = await ensureServerBuilt();
  if (build.code !== 0) throw new Error('the server did not build');
  const corpus = await ensureStyleCorpus({ perStyle: PER_STYLE, seconds: SECONDS });
  const library = join(work, 'library');
  linkFiles(
    corpus.manifest.map((song) => join(corpus.files, song.file)),
    library,
    corpus.manifest.map((song) => song.file),
  );
  const ctx = await startAnalysisServer({ work, name: 'quality' });
  try {
    const added = await addLibrary(ctx, library);
    const scanned = Date.now();
    const progress = await waitForAnalysis(ctx, { timeoutMs: corpus.manifest.length * 10_000 + 60_000 });
    const timing = { songs: progress.analysed + progress.failed, seconds: (Date.now() - scanned) / 1000 };
    if (progress.failed > 0)
      throw new Error(`${progress.failed} songs failed: ${JSON.stringify(progress.recentFailures)}`);
    const ids = await songIdsByPath(ctx, added.id);
    const styleOf = new Map(corpus.manifest.map((song) => [ids.get(song.file), song.style]));
    if (styleOf.has(undefined)) throw new Error('a file of the corpus is not a song of the library');
    const rows = await measure(ctx, styleOf);
    const table = report(rows, corpus, timing);
    console.log(`\n${table}`);
    mkdirSync(join(root, 'bench/results'), { recursive: true });
    writeFileSync(join(root, 'bench/results/radio-quality.md'), `${table}\n`);
    if (rows.some((row) => row.mean < TARGET)) process.exitCode = 1;
  } finally {
    await ctx.stop();
  }
}

await runBench('bench:radio-quality', main, {
  watchdogMs: (PER_STYLE * STYLES.length * 15 + 900) * 1000,
  cleanUp: () => rmSync(work, { recursive: true, force: true }),
});
