// How the audio analysis's features were chosen (docs/radio.md): every candidate measure of
// apps/server/src/modules/analysis/audio-features.ts on the style corpus (bench/style-corpus.mjs), decoded the way the
// server decodes (the same excerpt, rate and code), then
//   - each measure's separation of the styles: its Fisher ratio (variance between the styles' means over the mean
//     variance within a style), highest first;
//   - for each group of measures alone, for every candidate together and for the chosen layout (FEATURE_NAMES, with its
//     weights): the share of the 20 nearest songs (cosine over standardised values) that are of the seed's style, per
//     style — the same figure bench:radio-quality reports through the server;
//   - the analysis's time per song (decode, measure).
// Writes bench/results/analysis-features.md. Runs under tsx (it imports the server's TypeScript).
//
// Settings: BENCH_PER_STYLE (30), BENCH_SONG_SECONDS (40), BENCH_NEIGHBOURS (20).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureAudio } from '../apps/server/src/modules/analysis/audio-features.ts';
import { decodePcm, excerptOf } from '../apps/server/src/modules/analysis/decode-pcm.ts';
import {
  ANALYSIS_EXCERPT_SECONDS,
  FEATURE_NAMES,
  featureStats,
  comparable,
  vectorOf,
} from '../apps/server/src/modules/analysis/feature-layout.ts';
import { ensureStyleCorpus } from './style-corpus.mjs';
import { STYLES } from './style-synth.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const perStyle = Number(process.env.BENCH_PER_STYLE ?? 30);
const seconds = Number(process.env.BENCH_SONG_SECONDS ?? 40);
const neighbours = Number(process.env.BENCH_NEIGHBOURS ?? 20);
const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';

/** The candidate groups, by name prefix. */
const GROUPS = {
  loudness: (name) => ['loudness', 'loudnessSpread', 'dynamicRange', 'quietFrames'].includes(name),
  'spectral shape': (name) =>
    /^(zcr|centroid|spread|rolloff|flatness|flux|bass|treble)/.test(name) &&
    !name.endsWith('Pulse') &&
    !name.includes('Onset'),
  contrast: (name) => name.startsWith('contrast'),
  'MFCC means': (name) => /^mfcc\d+$/.test(name),
  'MFCC spreads': (name) => /^mfcc\d+Spread$/.test(name),
  rhythm: (name) =>
    [
      'tempo',
      'pulseClarity',
      'halfBeat',
      'doubleBeat',
      'bassPulse',
      'treblePulse',
      'onsetRate',
      'bassOnsetRate',
      'trebleOnsetRate',
    ].includes(name),
  tonal: (name) => ['keyClarity', 'mode', 'chromaEntropy', 'harmonicChange'].includes(name),
};

/** Per-style share of each song's `k` nearest (cosine) that share its style. */
function sameStyleShare(vectors, styles, k) {
  const norms = vectors.map((v) => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0)) || 1);
  const totals = new Map(STYLES.map((style) => [style, { same: 0, all: 0 }]));
  for (let i = 0; i < vectors.length; i++) {
    const scored = [];
    for (let j = 0; j < vectors.length; j++) {
      if (j === i) continue;
      let dot = 0;
      for (let d = 0; d < vectors[i].length; d++) dot += vectors[i][d] * vectors[j][d];
      scored.push([dot / (norms[i] * norms[j]), j]);
    }
    scored.sort((a, b) => b[0] - a[0]);
    const top = scored.slice(0, k);
    const entry = totals.get(styles[i]);
    entry.same += top.filter(([, j]) => styles[j] === styles[i]).length;
    entry.all += top.length;
  }
  return new Map([...totals].map(([style, { same, all }]) => [style, all === 0 ? 0 : same / all]));
}

/** Standardises the named measures over the corpus (z-scores), each dimension times its weight. */
function standardised(measures, names, weights = names.map(() => 1)) {
  const stats = names.map((name) => {
    const values = measures.map((m) => m[name]);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const std = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length) || 1;
    return { mean, std };
  });
  return measures.map((m) => names.map((name, d) => ((m[name] - stats[d].mean) / stats[d].std) * weights[d]));
}

function fisher(measures, styles, name) {
  const all = measures.map((m) => m[name]);
  const mean = all.reduce((a, b) => a + b, 0) / all.length;
  let between = 0;
  let within = 0;
  for (const style of STYLES) {
    const values = measures.filter((_, i) => styles[i] === style).map((m) => m[name]);
    const styleMean = values.reduce((a, b) => a + b, 0) / values.length;
    between += (styleMean - mean) ** 2;
    within += values.reduce((a, b) => a + (b - styleMean) ** 2, 0) / values.length;
  }
  return within === 0 ? Infinity : between / within;
}

const percent = (share) => `${(share * 100).toFixed(1)}%`;

function shareRow(label, shares, dims) {
  const values = STYLES.map((style) => shares.get(style));
  return `| ${label} | ${dims} | ${values.map(percent).join(' | ')} | ${percent(Math.min(...values))} |`;
}

async function main() {
  const corpus = await ensureStyleCorpus({ perStyle, seconds });
  const measures = [];
  const styles = [];
  let decodeMs = 0;
  let measureMs = 0;
  for (const song of corpus.manifest) {
    const excerpt = excerptOf(seconds * 1000, ANALYSIS_EXCERPT_SECONDS);
    const t0 = performance.now();
    const pcm = await decodePcm({ ffmpegPath: FFMPEG, input: { path: join(corpus.files, song.file) }, ...excerpt });
    const t1 = performance.now();
    measures.push(measureAudio(pcm));
    measureMs += performance.now() - t1;
    decodeMs += t1 - t0;
    styles.push(song.style);
  }
  const names = Object.keys(measures[0]);
  const lines = [
    `# Feature choice on the style corpus (${corpus.manifest.length} songs, ${perStyle} a style, ${seconds} s each)`,
    '',
    `Analysis time per song: decode ${(decodeMs / measures.length).toFixed(0)} ms (ffmpeg, nice 10), measure ${(measureMs / measures.length).toFixed(0)} ms (one thread).`,
    '',
    `Share of the ${neighbours} nearest songs (cosine over z-scores) that share the seed's style:`,
    '',
    `| features | dims | ${STYLES.join(' | ')} | worst |`,
    `| --- | ---: | ${STYLES.map(() => '---:').join(' | ')} | ---: |`,
  ];
  for (const [group, test] of Object.entries(GROUPS)) {
    const chosen = names.filter(test);
    lines.push(shareRow(group, sameStyleShare(standardised(measures, chosen), styles, neighbours), chosen.length));
  }
  lines.push(
    shareRow('every candidate', sameStyleShare(standardised(measures, names), styles, neighbours), names.length),
  );
  for (const [group, test] of Object.entries(GROUPS)) {
    const rest = names.filter((name) => !test(name));
    lines.push(
      shareRow(
        `every candidate but ${group}`,
        sameStyleShare(standardised(measures, rest), styles, neighbours),
        rest.length,
      ),
    );
  }
  const stats = featureStats(measures.map((m) => vectorOf(m)));
  const layout = measures.map((m) => Array.from(comparable(vectorOf(m), stats)));
  lines.push(
    shareRow('**the layout (FEATURE_NAMES)**', sameStyleShare(layout, styles, neighbours), FEATURE_NAMES.length),
  );
  lines.push('', "Each measure's Fisher ratio (between-style variance of the means / mean within-style variance):", '');
  lines.push('| measure | Fisher ratio | in the layout |', '| --- | ---: | :---: |');
  const ranked = names.map((name) => [name, fisher(measures, styles, name)]).sort((a, b) => b[1] - a[1]);
  for (const [name, ratio] of ranked)
    lines.push(`| ${name} | ${ratio.toFixed(2)} | ${FEATURE_NAMES.includes(name) ? 'yes' : ''} |`);
  const text = lines.join('\n');
  console.log(text);
  mkdirSync(join(here, 'results'), { recursive: true });
  // Every song's measures, for a closer look at a choice without analysing the corpus again.
  writeFileSync(join(here, 'results', 'analysis-measures.json'), JSON.stringify({ styles, measures }));
  writeFileSync(join(here, 'results', 'analysis-features.md'), `${text}\n`);
}

await main();
