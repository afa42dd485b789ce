// The transcoding row of `npm run bench:stream`: how many listeners this machine can serve converted audio in real
// time. A ~60 s stereo track (pink noise: harder to encode than a tone) is uploaded; then, for k = 1, 2, 4, … up to
// BENCH_TRANSCODE_MAX_K, k streams of it at k bitrates never asked for before (so each is a fresh, uncached ffmpeg)
// are read at once as fast as the server sends them. A stream's speed is the track's length over the time its whole
// body took; the row reports the highest k whose slowest stream still ran at ≥ 1× real time.
//
// Environment: BENCH_TRANSCODE_SECONDS (60), BENCH_TRANSCODE_MAX_K (64), BENCH_TRANSCODE_FORMAT (opus, or mp3).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const TRANSCODE_SECONDS = Number(process.env.BENCH_TRANSCODE_SECONDS ?? '60');
export const TRANSCODE_MAX_K = Number(process.env.BENCH_TRANSCODE_MAX_K ?? '64');
const FORMAT = process.env.BENCH_TRANSCODE_FORMAT ?? 'opus';
const BITRATE_MIN = 64;
const BITRATE_MAX = 320;

/** The k of each step: 1, 2, 4, … up to TRANSCODE_MAX_K. */
export function transcodeSteps(maxK = TRANSCODE_MAX_K) {
  const steps = [];
  for (let k = 1; k <= maxK; k *= 2) steps.push(k);
  return steps;
}

/** The most a run can take: every step at its slowest acceptable speed, plus set-up. */
export function transcodeWatchdogMs() {
  return (transcodeSteps().length * (TRANSCODE_SECONDS + 30) + 60) * 1000;
}

/** Throws unless ffmpeg runs: the row needs it on the server and here (to make the track). */
export function requireFfmpeg() {
  try {
    execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });
  } catch {
    throw new Error('ffmpeg is not installed: apt-get install -y ffmpeg (the transcoding row needs it)');
  }
}

function makeTrack(work) {
  const file = join(work, 'transcode-source.flac');
  const source = `anoisesrc=duration=${TRANSCODE_SECONDS}:color=pink:sample_rate=44100:amplitude=0.3`;
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', source, '-ac', '2', file]);
  return readFileSync(file);
}

async function upload(target, track, cover) {
  const { origin } = new URL(target.audioUrl);
  const { cookie } = target.headers;
  const artists = await (await fetch(`${origin}/artists`, { headers: { cookie } })).json();
  const form = new FormData();
  form.set('name', 'Transcode Bench');
  form.set('genre', 'Ambient');
  form.set('artistId', String(artists[0].id));
  form.set('songFile', new Blob([track], { type: 'audio/flac' }), 'transcode.flac');
  form.set('imageFile', new Blob([cover], { type: 'image/png' }), 'cover.png');
  const response = await fetch(`${origin}/api/songs`, { method: 'POST', headers: { cookie }, body: form });
  if (!response.ok) throw new Error(`transcode upload: ${response.status} ${await response.text()}`);
  const songs = await (await fetch(`${origin}/api/songs`, { headers: { cookie } })).json();
  const song = songs.find((entry) => entry.name === 'Transcode Bench');
  if (!song) throw new Error('transcode upload: the song is not listed');
  return new URL(song.link, origin).href;
}

/** One whole converted stream: its speed (× real time) and size; throws unless it is really the format asked for. */
async function stream(url, cookie) {
  const started = performance.now();
  const response = await fetch(url, { headers: { cookie } });
  const body = Buffer.from(await response.arrayBuffer());
  const seconds = (performance.now() - started) / 1000;
  const magic = FORMAT === 'opus' ? body.subarray(0, 4).toString('latin1') === 'OggS' : body.length > 0;
  if (response.status !== 200 || !magic) {
    throw new Error(`transcode ${url}: ${response.status} with ${body.length} bytes ${body.subarray(0, 120)}`);
  }
  return { speed: TRANSCODE_SECONDS / seconds, bytes: body.length };
}

/**
 * Runs the steps against a Tonearm started with ffmpeg and TRANSCODE_CONCURRENCY ≥ the largest k. Stops after the
 * first step below real time.
 */
export async function measureTranscoding(target, cover, work) {
  const link = await upload(target, makeTrack(work), cover);
  let bitrate = BITRATE_MIN;
  const steps = [];
  for (const k of transcodeSteps()) {
    if (bitrate + k - 1 > BITRATE_MAX) break;
    const urls = Array.from({ length: k }, () => `${link}?format=${FORMAT}&bitrate=${bitrate++}`);
    console.log(`  transcoding: ${k} concurrent uncached ${FORMAT} stream(s)…`);
    const results = await Promise.all(urls.map((url) => stream(url, target.headers.cookie)));
    const speeds = results.map((result) => result.speed);
    steps.push({ k, slowest: Math.min(...speeds), mean: speeds.reduce((a, b) => a + b, 0) / k });
    if (Math.min(...speeds) < 1) break;
  }
  return steps;
}

/** The report: one line per step, and the row's answer. */
export function transcodeReport(steps) {
  const lines = [
    `Transcoding: k concurrent, uncached ${FORMAT} conversions of a ${TRANSCODE_SECONDS} s stereo FLAC (44.1 kHz), ` +
      'each read as fast as it comes; speed = track length / time to the last byte.',
    '',
    '| concurrent transcodes | slowest stream × real time | mean × real time |',
    '| ---: | ---: | ---: |',
    ...steps.map((s) => `| ${s.k} | ${s.slowest.toFixed(1)} | ${s.mean.toFixed(1)} |`),
  ];
  const sustained = steps.filter((s) => s.slowest >= 1).at(-1);
  const capped =
    steps.length > 0 && steps.at(-1).slowest >= 1 ? ' (the largest k tried: raise BENCH_TRANSCODE_MAX_K)' : '';
  lines.push('');
  lines.push(
    sustained
      ? `transcoding: ${sustained.k} concurrent stream(s) in real time, the slowest at ${sustained.slowest.toFixed(1)}×${capped}`
      : 'transcoding: not even one stream in real time',
  );
  return lines.join('\n');
}
