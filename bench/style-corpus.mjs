// The style corpus: songs of the six styles of bench/style-synth.mjs, encoded by ffmpeg without any tag, in one flat
// folder under random names (so neither a tag, a folder nor a file name tells a style: only the audio does), made once
// into a cache folder (bench/.cache/style-corpus-<perStyle>x<seconds>s-v<version>) and answered from there afterwards.
// Which song is of which style is in manifest.json beside the folder, never in it.
//
// Formats rotate through FLAC, MP3 (128 or 192 kbit/s), Ogg Vorbis and AAC in M4A, so that the codec is no clue either.
//
// `node bench/style-corpus.mjs [--per-style N] [--seconds S] [--rebuild]` makes (or finds) it and prints where it is.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderSong, STYLES } from './style-synth.mjs';

const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';
const here = dirname(fileURLToPath(import.meta.url));
/** Bumped whenever the synthesis or the encoding changes: an older cache is then made again. */
const CORPUS_VERSION = 2;
const SAMPLE_RATE = 44_100;

const ENCODINGS = [
  { ext: 'flac', args: ['-c:a', 'flac'] },
  { ext: 'mp3', args: ['-c:a', 'libmp3lame', '-b:a', '192k'] },
  { ext: 'ogg', args: ['-c:a', 'libvorbis', '-q:a', '4'] },
  { ext: 'm4a', args: ['-c:a', 'aac', '-b:a', '160k'] },
  { ext: 'mp3', args: ['-c:a', 'libmp3lame', '-b:a', '128k'] },
];

export function styleCorpusDir(perStyle, seconds) {
  return join(here, '.cache', `style-corpus-${perStyle}x${seconds}s-v${CORPUS_VERSION}`);
}

/** Encodes mono float samples with ffmpeg to `file` (stereo, no metadata of any kind). */
function encode(samples, file, encoding) {
  return new Promise((resolve, reject) => {
    const args = [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'f32le', '-ar', String(SAMPLE_RATE), '-ac', '1', '-i', 'pipe:0'],
      ...['-ac', '2', '-map_metadata', '-1', '-fflags', '+bitexact', ...encoding.args, file],
    ];
    const child = spawn(FFMPEG, args, { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg ${code}: ${stderr}`))));
    child.stdin.end(Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength));
  });
}

/** The corpus's songs: style, seed, and the file name (a hash of both: random-looking, stable across builds). */
export function planStyleCorpus(perStyle) {
  const songs = [];
  for (const [s, style] of STYLES.entries()) {
    for (let n = 0; n < perStyle; n++) {
      const seed = 1000 * (s + 1) + n;
      const name = createHash('sha256').update(`${style}:${seed}`).digest('hex').slice(0, 16);
      songs.push({ style, seed, name });
    }
  }
  return songs;
}

/**
 * Makes the corpus (or finds it made) and answers `{ dir, files, manifest }`: `files` the folder to scan, `manifest`
 * each file's name (relative to `files`), style, seed and tempo.
 */
export async function ensureStyleCorpus({ perStyle = 30, seconds = 40, rebuild = false, log = console.log } = {}) {
  const dir = styleCorpusDir(perStyle, seconds);
  const manifestFile = join(dir, 'manifest.json');
  const files = join(dir, 'files');
  if (!rebuild && existsSync(manifestFile)) {
    return { dir, files, manifest: JSON.parse(readFileSync(manifestFile, 'utf8')) };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(files, { recursive: true });
  const started = Date.now();
  const plan = planStyleCorpus(perStyle);
  const manifest = [];
  let encoding = Promise.resolve();
  for (const [index, song] of plan.entries()) {
    const { samples, bpm } = renderSong(song.style, song.seed, seconds, SAMPLE_RATE);
    const format = ENCODINGS[index % ENCODINGS.length];
    const file = `${song.name}.${format.ext}`;
    manifest.push({ file, style: song.style, seed: song.seed, bpm: Math.round(bpm * 10) / 10 });
    // One encode runs while the next song is synthesised (two cores: one each).
    await encoding;
    encoding = encode(samples, join(files, file), format);
    if ((index + 1) % 30 === 0) log(`  style corpus: ${index + 1}/${plan.length} songs`);
  }
  await encoding;
  const temporary = `${manifestFile}.tmp`;
  writeFileSync(temporary, JSON.stringify(manifest, null, 1));
  renameSync(temporary, manifestFile);
  log(`Style corpus made in ${((Date.now() - started) / 1000).toFixed(1)} s: ${dir}`);
  return { dir, files, manifest };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const argument = (name, fallback) => {
    const at = process.argv.indexOf(name);
    return at >= 0 ? Number(process.argv[at + 1]) : fallback;
  };
  const corpus = await ensureStyleCorpus({
    perStyle: argument('--per-style', 30),
    seconds: argument('--seconds', 40),
    rebuild: process.argv.includes('--rebuild'),
  });
  console.log(`${corpus.manifest.length} songs in ${corpus.files}`);
}
