// The scan corpus: a music folder of N tagged audio files for a benchmark of scanning a library in place, made once
// into a cache folder (bench/.cache/scan-corpus-<N> by default, not kept in git) and answered from there afterwards.
//
//   Artist/Album (Year)/NN Title.ext   (1-NN on two-disc albums; Various Artists/… for compilations)
//
// ~8 albums an artist, 10–12 tracks an album; MP3, FLAC, Ogg Vorbis, Opus and M4A (AAC), mostly one format an album,
// mixed on some; 2–4 s of real audio each; tags title, artist (some "A; B" and "A feat. B"), album, album artist,
// track/total, disc/total, year, genre, and on some files composer, compilation and MusicBrainz ids; a third of the
// albums with an embedded JPEG cover, a third with a cover.jpg beside the files, a third with none. Every file differs
// from every other in its bytes (its tags do). See bench/scan-corpus-plan.mjs for the library and
// bench/scan-corpus-formats.mjs for how a file is written: ffmpeg encodes a pool of CLIPS_PER_FORMAT clips per format
// once, and every file is one of those clips with its own tags written around it in JS, in worker threads.
//
// `node bench/scan-corpus.mjs [--files N] [--cache-dir DIR] [--rebuild] [--verify]` makes (or finds) the corpus and
// prints where it is, its size and the time taken; --verify then reads a sample of every format back with
// music-metadata, decodes it with ffmpeg, checks every file's bytes are unique and tries the mutation helpers on a copy,
// and exits non-zero on any mismatch.
//
// The helpers a benchmark uses on a copy (copyCorpus, hard links) — never on the cache itself, which they refuse:
// touchPercent, movePercent, deletePercent. Each replaces a file (a new file renamed over it), never writes into one,
// so a hard-linked copy never changes the cached original.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { assemble, FORMATS, formatOf, parseAudio, retitle, tagPayload } from './scan-corpus-formats.mjs';
import { CLIPS_PER_FORMAT, clipSeconds, planCorpus, random } from './scan-corpus-plan.mjs';

const run = promisify(execFile);
const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';
const here = dirname(fileURLToPath(import.meta.url));
/** Bumped whenever the corpus a given N makes changes: an older cache is then made again. */
const CORPUS_VERSION = 3;
/** Bumped whenever the base clips change. */
const POOL_VERSION = 1;
const WORKER_JOB = 'scan-corpus-albums';
/** What touchPercent appends to the title of the files whose content it changes. */
export const RETITLE_SUFFIX = ' (Remastered)';

export function defaultCacheDir(files) {
  return join(here, '.cache', `scan-corpus-${files}`);
}

/** The base clips, shared by every corpus size. */
export const DEFAULT_POOL_DIR = join(here, '.cache', 'scan-corpus-pool');

const toPosix = (path) => path.split(sep).join('/');

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Writes a file whole or not at all: a temporary file renamed over the name. */
function writeAtomically(file, data) {
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  writeFileSync(temporary, data);
  renameSync(temporary, file);
}

/** Runs `task` over `items`, `limit` at a time. */
async function eachLimited(items, limit, task) {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      await task(items[index], index);
    }
  });
  await Promise.all(lanes);
}

// ---------------------------------------------------------------------------------------------------------------
// The base clips

/** Clip k: a plucked two-note figure on a pitch and tempo of its own, slightly different in the two channels. */
function clipSource(clip) {
  const pitch = (110 * 2 ** (((clip * 5) % 24) / 12)).toFixed(2);
  const beat = (0.25 + (clip % 4) * 0.125).toFixed(3);
  const channel = (detune) =>
    `0.25*sin(2*PI*${pitch}*${detune}*t)*exp(-4*mod(t\\,${beat}))` +
    `+0.12*sin(2*PI*${pitch}*1.5*${detune}*t)*exp(-3*mod(t+${beat}/2\\,${beat}))` +
    `+0.04*sin(2*PI*${pitch}*2*t)`;
  return `aevalsrc=exprs='${channel(1)}|${channel(1.003)}':s=44100:d=${clipSeconds(clip)}`;
}

/** ffmpeg output options a clip is encoded with, per format; bitrates vary from clip to clip. */
function clipOutputs(clip, file) {
  const none = ['-map_metadata', '-1', '-fflags', '+bitexact'];
  return [
    ...none,
    ...[
      '-c:a',
      'libmp3lame',
      ...[
        ['-b:a', '128k'],
        ['-b:a', '192k'],
        ['-q:a', '2'],
      ][clip % 3],
    ],
    ...['-id3v2_version', '0', '-write_xing', '1', `${file}.mp3`],
    ...none,
    ...['-c:a', 'flac', '-sample_fmt', 's16', `${file}.flac`],
    ...none,
    ...['-c:a', 'libvorbis', '-q:a', String(3 + (clip % 3)), `${file}.ogg`],
    ...none,
    ...['-ar', '48000', '-c:a', 'libopus', '-b:a', ['64k', '96k', '128k'][clip % 3], `${file}.opus`],
    ...none,
    ...['-c:a', 'aac', '-b:a', ['128k', '160k', '192k'][clip % 3], `${file}.m4a`],
  ];
}

/** Encodes the clips (one ffmpeg a clip, writing all five formats) unless the pool is already complete. */
async function ensurePool(poolDir) {
  const marker = join(poolDir, 'pool.json');
  if (readJson(marker)?.version === POOL_VERSION) return;
  rmSync(poolDir, { recursive: true, force: true });
  mkdirSync(poolDir, { recursive: true });
  const clips = Array.from({ length: CLIPS_PER_FORMAT }, (_, clip) => clip);
  await eachLimited(clips, availableParallelism(), async (clip) => {
    const file = join(poolDir, `clip-${String(clip).padStart(2, '0')}`);
    try {
      await run(FFMPEG, ['-v', 'error', '-y', '-f', 'lavfi', '-i', clipSource(clip), ...clipOutputs(clip, file)]);
    } catch (error) {
      if (error.code === 'ENOENT') {
        throw new Error(`the scan corpus needs ffmpeg (${FFMPEG}): apt-get install ffmpeg`, { cause: error });
      }
      throw error;
    }
  });
  writeFileSync(marker, JSON.stringify({ version: POOL_VERSION }));
}

function loadPool(poolDir) {
  const pool = {};
  for (const format of Object.keys(FORMATS)) {
    pool[format] = Array.from({ length: CLIPS_PER_FORMAT }, (_, clip) => {
      const file = join(poolDir, `clip-${String(clip).padStart(2, '0')}.${FORMATS[format].ext}`);
      return parseAudio(format, readFileSync(file)).base;
    });
  }
  return pool;
}

// ---------------------------------------------------------------------------------------------------------------
// Covers

const COVER_SIDE = 300;

/** An album's cover: a 300×300 JPEG (~15–20 KB) of a gradient, a disc and grain, all of them the album's own. */
async function makeCover(sharp, seed) {
  const rnd = random(0x9e3779b9 ^ seed);
  const colour = () => [rnd() * 255, rnd() * 255, rnd() * 255];
  const [from, to, disc] = [colour(), colour(), colour()];
  const cx = rnd() * COVER_SIDE;
  const cy = rnd() * COVER_SIDE;
  const radius2 = (COVER_SIDE * (0.15 + rnd() * 0.3)) ** 2;
  const pixels = Buffer.alloc(COVER_SIDE * COVER_SIDE * 3);
  let grain = (seed * 2654435761) | 1;
  for (let y = 0; y < COVER_SIDE; y++) {
    for (let x = 0; x < COVER_SIDE; x++) {
      const along = (x + y) / (2 * COVER_SIDE);
      const inside = (x - cx) ** 2 + (y - cy) ** 2 < radius2;
      const offset = (y * COVER_SIDE + x) * 3;
      grain = (Math.imul(grain, 1664525) + 1013904223) | 0;
      for (let c = 0; c < 3; c++) {
        const value = inside ? disc[c] : from[c] * (1 - along) + to[c] * along;
        pixels[offset + c] = Math.max(0, Math.min(255, value + ((grain >>> (c * 8 + 4)) & 31) - 16));
      }
    }
  }
  const data = await sharp(pixels, { raw: { width: COVER_SIDE, height: COVER_SIDE, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
  return { data, width: COVER_SIDE, height: COVER_SIDE };
}

// ---------------------------------------------------------------------------------------------------------------
// Making the corpus

/** A worker's share: whole albums, each written file by file; answers the bytes written. */
async function writeAlbums({ poolDir, root, albums }) {
  const sharp = (await import('sharp')).default;
  sharp.concurrency(1);
  const pool = loadPool(poolDir);
  let bytes = 0;
  let done = 0;
  for (const album of albums) {
    const dir = join(root, album.dir);
    mkdirSync(dir, { recursive: true });
    const cover = album.cover === 'none' ? null : await makeCover(sharp, album.coverSeed);
    if (album.cover === 'folder') {
      writeFileSync(join(dir, 'cover.jpg'), cover.data);
      bytes += cover.data.length;
    }
    for (const track of album.tracks) {
      const payload = tagPayload(track.format, track.tags, album.cover === 'embedded' ? cover : null);
      const data = assemble(track.format, pool[track.format][track.clip], payload, track.serial);
      writeFileSync(join(root, track.path), data);
      bytes += data.length;
    }
    done += album.tracks.length;
    if (done >= 500) {
      parentPort.postMessage({ progress: done });
      done = 0;
    }
  }
  parentPort.postMessage({ progress: done, bytes });
}

if (!isMainThread && workerData?.job === WORKER_JOB) await writeAlbums(workerData);

function runWorkers(poolDir, root, albums, onProgress) {
  const count = Math.max(1, Math.min(availableParallelism(), albums.length));
  // Albums dealt out in turn, so each worker gets about as many files, covers and formats.
  const shares = Array.from({ length: count }, (_, w) => albums.filter((_, index) => index % count === w));
  return Promise.all(
    shares.map(
      (share) =>
        new Promise((resolve, reject) => {
          const worker = new Worker(new URL(import.meta.url), {
            workerData: { job: WORKER_JOB, poolDir, root, albums: share },
          });
          let bytes = null;
          worker.on('message', (message) => {
            onProgress(message.progress);
            if (message.bytes !== undefined) bytes = message.bytes;
          });
          worker.once('error', reject);
          worker.once('exit', (code) => {
            if (code === 0 && bytes !== null) resolve(bytes);
            else reject(new Error(`a scan corpus worker exited with ${code}`));
          });
        }),
    ),
  );
}

/**
 * The corpus of `files` files: `{ root, files, covers, bytes, albums, seconds, cached }`: the folder to scan, the
 * audio files and cover.jpg files in it (relative paths, `/`), the bytes of all of them, the album count, the seconds
 * it took to make, and whether it came from the cache. Made once into `cacheDir` (root = cacheDir/music); its marker,
 * cacheDir/corpus.json, is written last, so a corpus cut short is made again rather than used. The base clips are
 * encoded once into `poolDir`, for every size.
 */
export async function scanCorpus({
  files = 20000,
  cacheDir = defaultCacheDir(files),
  poolDir = DEFAULT_POOL_DIR,
  rebuild = false,
  log,
} = {}) {
  if (!Number.isInteger(files) || files < 1) throw new Error(`files must be a positive integer (got ${files})`);
  const root = join(cacheDir, 'music');
  const markerFile = join(cacheDir, 'corpus.json');
  const marker = rebuild ? null : readJson(markerFile);
  if (marker?.version === CORPUS_VERSION && marker.files.length === files && existsSync(root)) {
    const { files: paths, covers, bytes, albums, seconds } = marker;
    return { root, files: paths, covers, bytes, albums, seconds, cached: true };
  }
  const started = performance.now();
  rmSync(markerFile, { force: true });
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  await ensurePool(poolDir);
  const plan = planCorpus(files);
  let written = 0;
  let reported = 0;
  const byteCounts = await runWorkers(poolDir, root, plan.albums, (progress) => {
    written += progress;
    if (log && written - reported >= files / 10) {
      reported = written;
      log(`${written} of ${files} files (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    }
  });
  const result = {
    version: CORPUS_VERSION,
    files: plan.albums.flatMap((album) => album.tracks.map((track) => track.path)),
    covers: plan.albums.filter((album) => album.cover === 'folder').map((album) => `${album.dir}/cover.jpg`),
    bytes: byteCounts.reduce((sum, bytes) => sum + bytes, 0),
    albums: plan.albums.length,
    seconds: (performance.now() - started) / 1000,
  };
  writeAtomically(markerFile, JSON.stringify(result));
  const { files: paths, covers, bytes, albums, seconds } = result;
  return { root, files: paths, covers, bytes, albums, seconds, cached: false };
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers for the benchmark: copies and changes

function walk(root, dir = root, found = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(root, path, found);
    else if (entry.isFile()) found.push(toPosix(relative(root, path)));
  }
  return found;
}

const isAudio = (file) => Object.values(FORMATS).some(({ ext }) => file.toLowerCase().endsWith(`.${ext}`));

/**
 * Copies the corpus at `root` to `dest` (which must not exist yet) with hard links where the file system allows, a
 * plain copy where it does not: fast even at 100 000 files. Answers `{ root: dest, files, linked, copied }` (audio
 * files, relative, sorted). The helpers below never write into a file, so the cached files do not change through
 * the links.
 */
export function copyCorpus(root, dest) {
  if (existsSync(dest)) throw new Error(`${dest} exists already`);
  const all = walk(root).sort();
  let linked = 0;
  let copied = 0;
  const made = new Set();
  for (const file of all) {
    const folder = dirname(file);
    if (!made.has(folder)) {
      mkdirSync(join(dest, folder), { recursive: true });
      made.add(folder);
    }
    try {
      linkSync(join(root, file), join(dest, file));
      linked++;
    } catch (error) {
      if (!['EXDEV', 'EPERM', 'EMLINK', 'ENOTSUP'].includes(error.code)) throw error;
      copyFileSync(join(root, file), join(dest, file));
      copied++;
    }
  }
  return { root: dest, files: all.filter(isAudio), linked, copied };
}

/** Refuses to change the cached corpus itself (a scanCorpus root): the changes belong on a copyCorpus copy. */
function refuseCache(root) {
  if (basename(root) === 'music' && existsSync(join(root, '..', 'corpus.json'))) {
    throw new Error(`${root} is a cached scan corpus: change a copy (copyCorpus) instead`);
  }
}

/** `pct` % of `files` (rounded), chosen by `seed` and the operation's name (so each helper picks its own files). */
function choose(files, pct, seed, operation) {
  let salt = 0;
  for (const char of operation) salt = (Math.imul(salt, 31) + char.charCodeAt(0)) | 0;
  const rnd = random(Math.imul(seed, 0x9e3779b1) ^ salt);
  const count = Math.round((files.length * pct) / 100);
  const order = files.map((_, index) => index);
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(rnd() * (order.length - i));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return { picked: order.slice(0, count).map((index) => files[index]), rnd };
}

/** Puts `data` (or a copy of the file) in place of `file` with a later mtime: a new file renamed over it. */
function replaceFile(file, data) {
  const before = statSync(file).mtimeMs;
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  if (data === null) copyFileSync(file, temporary);
  else writeFileSync(temporary, data);
  // At least 2 s past the old time, so even a file system with coarse times sees it change.
  const time = new Date(Math.max(Date.now(), before + 2000));
  utimesSync(temporary, time, time);
  renameSync(temporary, file);
}

/**
 * Gives `pct` % of `files` (under `root`) a new mtime; the first half of them (rounded down) also get a new title tag,
 * their old title + RETITLE_SUFFIX, so their size and content change too. Answers `{ touched, changed }`, disjoint:
 * `touched` only have a new mtime (same bytes), `changed` have new bytes and mtime. Deterministic given `seed`.
 */
export function touchPercent(root, files, pct, seed) {
  refuseCache(root);
  const { picked } = choose(files, pct, seed, 'touch');
  const changed = picked.slice(0, Math.floor(picked.length / 2));
  const touched = picked.slice(changed.length);
  for (const file of changed) {
    const path = join(root, file);
    replaceFile(
      path,
      retitle(formatOf(file), readFileSync(path), (title) => title + RETITLE_SUFFIX),
    );
  }
  for (const file of touched) replaceFile(join(root, file), null);
  return { touched, changed };
}

/**
 * Moves `pct` % of `files` (under `root`), a third each: renamed in their folder ("07 Title" → "07 - Title"), into
 * another album's folder (same name; " (2)" if taken), or into a new folder `Moved <seed>/<old folder>/`. Answers the
 * [from, to] pairs (relative paths). Deterministic given `seed`.
 */
export function movePercent(root, files, pct, seed) {
  refuseCache(root);
  const { picked, rnd } = choose(files, pct, seed, 'move');
  const folders = [...new Set(files.map((file) => dirname(file)))].sort();
  const moves = [];
  picked.forEach((from, index) => {
    const folder = dirname(from);
    const name = basename(from);
    let to;
    if (index % 3 === 0) to = `${folder}/${name.replace(/^([\d-]+) /, '$1 - ')}`;
    else if (index % 3 === 1 && folders.length > 1) {
      let other = folders[Math.floor(rnd() * folders.length)];
      while (other === folder) other = folders[Math.floor(rnd() * folders.length)];
      to = `${other}/${name}`;
    } else to = `Moved ${seed}/${folder}/${name}`;
    for (let n = 2; to === from || existsSync(join(root, to)); n++) {
      to = `${dirname(to)}/${basename(name, extname(name))} (${n})${extname(name)}`;
    }
    mkdirSync(join(root, dirname(to)), { recursive: true });
    renameSync(join(root, from), join(root, to));
    moves.push([from, to]);
  });
  return moves;
}

/** Deletes `pct` % of `files` (under `root`); answers the deleted paths. Deterministic given `seed`. */
export function deletePercent(root, files, pct, seed) {
  refuseCache(root);
  const { picked } = choose(files, pct, seed, 'delete');
  for (const file of picked) unlinkSync(join(root, file));
  return picked;
}

// ---------------------------------------------------------------------------------------------------------------
// --verify

const SAMPLE_PER_FORMAT = 12;

/** What music-metadata should read from a file with these tags: the fields compared, as it reports them. */
function expectedCommon(tags) {
  const mb = tags.musicbrainz;
  return {
    title: tags.title,
    artist: tags.artist,
    album: tags.album,
    albumartist: tags.albumArtist,
    track: { no: tags.track, of: tags.trackTotal },
    disk: { no: tags.disc, of: tags.discTotal },
    year: tags.year,
    genre: [tags.genre],
    composer: tags.composer === undefined ? undefined : [tags.composer],
    compilation: tags.compilation === true ? true : undefined,
    musicbrainz_recordingid: mb?.recordingId,
    musicbrainz_trackid: mb?.trackId,
    musicbrainz_albumid: mb?.albumId,
    musicbrainz_artistid: mb === undefined ? undefined : [mb.artistId],
    musicbrainz_albumartistid: mb === undefined ? undefined : [mb.albumArtistId],
  };
}

const CODECS = { mp3: /^MPEG 1 Layer 3$/, flac: /^FLAC$/, ogg: /^Vorbis I$/, opus: /^Opus$/, m4a: /^MPEG-4\/AAC$/ };

/** The sample: per format, files with each feature first (cover, compilation, several artists, …), then any. */
function sampleOf(plan) {
  const tracks = plan.albums.flatMap((album) => album.tracks.map((track) => ({ album, track })));
  const features = [
    ({ album }) => album.cover === 'embedded',
    ({ track }) => track.tags.compilation === true,
    ({ track }) => track.tags.artist.includes('; '),
    ({ track }) => track.tags.artist.includes(' feat. '),
    ({ track }) => track.tags.composer !== undefined,
    ({ track }) => track.tags.musicbrainz !== undefined,
    ({ track }) => track.tags.discTotal > 1,
    ({ track }) => /[^\x20-\x7e]/.test(track.path),
  ];
  const sample = [];
  for (const format of Object.keys(FORMATS)) {
    const ofFormat = tracks.filter(({ track }) => track.format === format);
    const chosen = new Set();
    for (const feature of features) {
      const found = ofFormat.find((item) => feature(item) && !chosen.has(item));
      if (found !== undefined) chosen.add(found);
    }
    for (let i = 0; chosen.size < SAMPLE_PER_FORMAT && i < ofFormat.length; i++) {
      chosen.add(ofFormat[Math.floor((i * 7919) % ofFormat.length)]);
    }
    sample.push(...chosen);
  }
  return sample;
}

async function ffmpegDecodes(file) {
  try {
    const { stderr } = await run(FFMPEG, ['-v', 'error', '-i', file, '-f', 'null', '-']);
    return stderr.trim() === '' ? null : stderr.trim();
  } catch (error) {
    return String(error.stderr ?? error.message).trim();
  }
}

/** Reads a file back and compares it with its tags; answers the mismatches. */
async function checkFile(parseFile, path, track, cover) {
  const problems = [];
  const { common, format } = await parseFile(path);
  const expected = expectedCommon(track.tags);
  for (const [key, value] of Object.entries(expected)) {
    if (JSON.stringify(common[key]) !== JSON.stringify(value)) {
      problems.push(`${key}: read ${JSON.stringify(common[key])}, wrote ${JSON.stringify(value)}`);
    }
  }
  if (!CODECS[track.format].test(format.codec ?? '')) problems.push(`codec ${format.codec}`);
  const seconds = clipSeconds(track.clip);
  if (!(Math.abs((format.duration ?? 0) - seconds) < 0.1)) problems.push(`duration ${format.duration}, not ${seconds}`);
  const pictures = common.picture ?? [];
  if (cover === 'embedded') {
    if (pictures.length !== 1 || pictures[0].format !== 'image/jpeg' || pictures[0].data.length < 5000) {
      problems.push(`embedded cover: ${pictures.map((p) => `${p.format} ${p.data.length}`).join(', ') || 'none'}`);
    }
  } else if (pictures.length > 0) problems.push('an embedded cover on an album without one');
  const decoding = await ffmpegDecodes(path);
  if (decoding !== null) problems.push(`ffmpeg: ${decoding}`);
  return problems;
}

function hashFile(path) {
  return createHash('sha1').update(readFileSync(path)).digest('hex');
}

/** Checks a corpus (see the header); answers the problems found, none when all is well. */
export async function verifyCorpus(corpus, log = console.log) {
  const { parseFile } = await import('music-metadata');
  const problems = [];
  const plan = planCorpus(corpus.files.length);

  const onDisk = walk(corpus.root).sort();
  const expectedFiles = [...corpus.files, ...corpus.covers].sort();
  if (JSON.stringify(onDisk) !== JSON.stringify(expectedFiles)) {
    problems.push(`the folder holds ${onDisk.length} files, the corpus ${expectedFiles.length}`);
  }
  log(`files on disk: ${onDisk.length} (${corpus.files.length} audio, ${corpus.covers.length} cover.jpg)`);

  const sample = sampleOf(plan);
  const perFormat = {};
  await eachLimited(sample, availableParallelism(), async ({ album, track }) => {
    const found = await checkFile(parseFile, join(corpus.root, track.path), track, album.cover);
    perFormat[track.format] = (perFormat[track.format] ?? 0) + 1;
    for (const problem of found) problems.push(`${track.path}: ${problem}`);
  });
  log(
    `tags, codec, duration and cover read back with music-metadata, decoded with ffmpeg: ` +
      Object.entries(perFormat)
        .map(([format, count]) => `${format} ${count}`)
        .join(', '),
  );

  const hashes = new Map();
  const hashOf = new Map();
  for (const file of [...corpus.files, ...corpus.covers]) {
    const hash = hashFile(join(corpus.root, file));
    hashOf.set(file, hash);
    if (hashes.has(hash)) problems.push(`${file} has the same bytes as ${hashes.get(hash)}`);
    else hashes.set(hash, file);
  }
  log(`distinct files (sha1 of each): ${hashes.size} of ${corpus.files.length + corpus.covers.length}`);

  problems.push(...(await verifyHelpers(corpus, plan, hashOf, parseFile, log)));
  return problems;
}

/** The helpers on a hard-linked copy: what they answer happened, the copy still reads, the cache did not change. */
async function verifyHelpers(corpus, plan, hashOf, parseFile, log) {
  const problems = [];
  const work = mkdtempSync(join(tmpdir(), 'tonearm-scan-corpus-'));
  try {
    const mtimes = new Map(corpus.files.map((file) => [file, statSync(join(corpus.root, file)).mtimeMs]));
    const started = performance.now();
    const copy = copyCorpus(corpus.root, join(work, 'music'));
    log(
      `copyCorpus: ${copy.linked} hard links, ${copy.copied} copies in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const tracks = new Map(plan.albums.flatMap((album) => album.tracks.map((track) => [track.path, track])));
    const pct = Math.max(1, Math.min(5, 30000 / corpus.files.length));
    const { touched, changed } = touchPercent(copy.root, copy.files, pct, 1);
    for (const file of changed) {
      const { common } = await parseFile(join(copy.root, file));
      const title = tracks.get(file).tags.title + RETITLE_SUFFIX;
      if (common.title !== title) problems.push(`touch: ${file} reads "${common.title}", not "${title}"`);
      if (hashFile(join(copy.root, file)) === hashOf.get(file)) problems.push(`touch: ${file} did not change`);
    }
    await eachLimited(changed.slice(0, 40), availableParallelism(), async (file) => {
      const decoding = await ffmpegDecodes(join(copy.root, file));
      if (decoding !== null) problems.push(`touch: ${file}: ffmpeg: ${decoding}`);
    });
    for (const file of touched) {
      if (hashFile(join(copy.root, file)) !== hashOf.get(file)) problems.push(`touch: ${file} changed its bytes`);
      if (statSync(join(copy.root, file)).mtimeMs <= mtimes.get(file)) problems.push(`touch: ${file} same mtime`);
    }
    for (const file of [...touched, ...changed]) {
      const cached = join(corpus.root, file);
      if (statSync(cached).mtimeMs !== mtimes.get(file) || hashFile(cached) !== hashOf.get(file)) {
        problems.push(`touch: the cached ${file} changed`);
      }
    }
    const used = new Set([...touched, ...changed]);
    const rest = copy.files.filter((file) => !used.has(file));
    const moves = movePercent(copy.root, rest, pct, 1);
    for (const [from, to] of moves) {
      if (existsSync(join(copy.root, from)) || !existsSync(join(copy.root, to))) problems.push(`move: ${from} → ${to}`);
      if (hashFile(join(copy.root, to)) !== hashOf.get(from)) problems.push(`move: ${to} is not ${from}`);
      if (!existsSync(join(corpus.root, from))) problems.push(`move: the cached ${from} went`);
    }
    const moved = new Set(moves.map(([from]) => from));
    const deleted = deletePercent(
      copy.root,
      rest.filter((file) => !moved.has(file)),
      pct,
      1,
    );
    for (const file of deleted) {
      if (existsSync(join(copy.root, file))) problems.push(`delete: ${file} is still there`);
      if (!existsSync(join(corpus.root, file))) problems.push(`delete: the cached ${file} went`);
    }
    log(
      `helpers on the copy (${pct.toFixed(1)} % each): ${touched.length} touched, ${changed.length} retitled ` +
        `(read back; ${Math.min(40, changed.length)} decoded), ${moves.length} moved, ${deleted.length} deleted; ` +
        `the cached files they had unchanged`,
    );
    try {
      touchPercent(corpus.root, corpus.files, 1, 1);
      problems.push('touchPercent changed the cached corpus');
    } catch {
      // refused, as it should
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------------------
// CLI

function option(args, name) {
  const index = args.indexOf(name);
  if (index < 0) return undefined;
  const value = args[index + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a value`);
  return value;
}

async function main(args) {
  const files = Number(option(args, '--files') ?? '20000');
  const cacheDir = option(args, '--cache-dir');
  const started = performance.now();
  const corpus = await scanCorpus({
    files,
    ...(cacheDir !== undefined && { cacheDir }),
    rebuild: args.includes('--rebuild'),
    log: (line) => console.log(line),
  });
  const elapsed = (performance.now() - started) / 1000;
  console.log(`Scan corpus: ${corpus.root}`);
  console.log(
    `${corpus.files.length} audio files and ${corpus.covers.length} cover.jpg in ${corpus.albums} albums, ` +
      `${(corpus.bytes / 1024 ** 2).toFixed(1)} MiB; ` +
      (corpus.cached
        ? `from the cache in ${elapsed.toFixed(2)} s (made in ${corpus.seconds.toFixed(1)} s)`
        : `made in ${elapsed.toFixed(1)} s`),
  );
  if (args.includes('--verify')) {
    const verifyStarted = performance.now();
    const problems = await verifyCorpus(corpus);
    for (const problem of problems.slice(0, 50)) console.error(`MISMATCH ${problem}`);
    const took = ((performance.now() - verifyStarted) / 1000).toFixed(1);
    if (problems.length > 0) {
      console.error(`--verify: ${problems.length} problems (${took} s)`);
      process.exitCode = 1;
    } else console.log(`--verify: all checks passed (${took} s)`);
  }
}

if (isMainThread && process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main(process.argv.slice(2));
}
