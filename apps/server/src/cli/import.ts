// `npm run import -- <folder> [--genre "<genre>"] [--concurrency <n>] [--batch-size <n>] [--nice <n>] [--watch]`: adds
// a folder of tagged audio files to the catalogue of the configured database and DATA_DIR (the same environment
// variables as the server); with --watch it then keeps the catalogue in step with the folder until stopped.
import { readdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { getPriority, setPriority } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { GENRES, type Genre } from '@tonearm/contract';
import { ConfigError, loadConfig } from '../config.js';
import { createDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrations/index.js';
import { composeCatalogue } from '../catalogue-composition.js';
import type { Catalogue } from '../modules/catalogue.js';
import type { BlobStore } from '../storage/blob-store.js';
import { createBlobStore } from '../storage/create-blob-store.js';
import { AudioEndCheck, findFfmpeg } from './audio-check.js';
import { matchGenre } from '../modules/libraries/genre-match.js';
import {
  ALREADY_IMPORTED,
  DEFAULT_BATCH_SIZE,
  importFolder,
  MAX_BATCH_SIZE,
  type ImportOptions,
  type ImportProgress,
  type ImportSummary,
} from './import-folder.js';
import { printablePath } from './printable.js';
import { watchFolder, type WatchPass } from './watch-folder.js';

const USAGE =
  'Usage: npm run import -- <folder> [--genre "<genre>"] [--concurrency <n>] [--batch-size <n>] [--nice <n>] [--watch]';

/**
 * The import's CPU priority by default (nice 10, of 0–19): hashing, tag parsing and thumbnails yield to a server
 * running on the same machine, whose listeners keep being answered at once; on an otherwise idle machine it changes
 * nothing.
 */
const DEFAULT_NICE = 10;

class UsageError extends Error {}

interface Arguments {
  folder: string;
  defaultGenre?: Genre;
  concurrency: number;
  batchSize: number;
  nice: number;
  watch: boolean;
}

/** A whole number from `min` to `max`, or a UsageError naming the option. */
function wholeNumber(value: string, option: string, min: number, max: number): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) {
    throw new UsageError(`--${option} must be a whole number from ${min} to ${max}`);
  }
  return number;
}

function readArguments(argv: string[]): Arguments {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      genre: { type: 'string' },
      concurrency: { type: 'string', default: '4' },
      'batch-size': { type: 'string', default: String(DEFAULT_BATCH_SIZE) },
      nice: { type: 'string', default: String(DEFAULT_NICE) },
      watch: { type: 'boolean', default: false },
    },
  });
  const [folder, ...extra] = positionals;
  if (folder === undefined || extra.length > 0) throw new UsageError(USAGE);
  const concurrency = wholeNumber(values.concurrency, 'concurrency', 1, 16);
  const batchSize = wholeNumber(values['batch-size'], 'batch-size', 1, MAX_BATCH_SIZE);
  const nice = wholeNumber(values.nice, 'nice', 0, 19);
  const { watch } = values;
  if (values.genre === undefined) return { folder, concurrency, batchSize, nice, watch };
  const defaultGenre = matchGenre(values.genre);
  if (defaultGenre === null) throw new UsageError(`--genre must be one of: ${GENRES.join(', ')}`);
  return { folder, defaultGenre, concurrency, batchSize, nice, watch };
}

/**
 * Lowers the CPU priority of the whole process. On Linux a priority belongs to a thread, and the thread pools that
 * hash files and make thumbnails (libuv's, libvips') exist before this runs: each thread is set, and threads started
 * later inherit it. Raising a priority back needs privileges, so a nice value below the current one is left alone.
 */
function lowerPriority(nice: number): void {
  let threads: number[];
  try {
    threads = readdirSync('/proc/self/task').map(Number);
  } catch {
    threads = [0];
  }
  for (const thread of threads) {
    try {
      if (nice > getPriority(thread)) setPriority(thread, nice);
    } catch {
      // Not permitted, not supported, or the thread has ended: it runs at the priority it had.
    }
  }
}

function rate(done: number, ms: number): string {
  return ms > 0 ? (done / (ms / 1000)).toFixed(1) : '0.0';
}

function progressLine(p: ImportProgress): string {
  const percent = Math.floor((p.done / Math.max(p.total, 1)) * 100);
  const width = String(p.total).length;
  return (
    `[${String(p.done).padStart(width)}/${p.total}] ${String(percent).padStart(3)}%  ${rate(p.done, p.elapsedMs)} files/s` +
    `  added ${p.added}  updated ${p.updated}  skipped ${p.skipped}  failed ${p.failed}`
  );
}

/** One line rewritten in place on a terminal; a line per 5 % (and the last) when piped into a log. */
function progressPrinter(): (p: ImportProgress) => void {
  if (process.stdout.isTTY) {
    return (p) =>
      process.stdout.write(
        `\r${progressLine(p)}  ${printablePath(path.basename(p.last.file)).slice(0, 40).padEnd(40)}`,
      );
  }
  let lastStep = -1;
  return (p) => {
    const step = Math.floor((p.done / Math.max(p.total, 1)) * 20);
    if (step !== lastStep || p.done === p.total) console.log(progressLine(p));
    lastStep = step;
  };
}

/** A path under the folder, and a reason, as printed: relative, control characters escaped (printable.ts). */
function shown(folder: string, file: string): string {
  return printablePath(path.relative(folder, file));
}

/** The lines of a summary that name files: the files not added, the warnings, the entries the folder's rule skipped. */
function fileLines(summary: ImportSummary, folder: string): string[] {
  const line = (status: string, file: string, reason = '') =>
    `${status}: ${shown(folder, file)}: ${printablePath(reason)}`;
  return [
    // Files a previous run added are only counted: listing them all would bury the ones that need attention.
    ...summary.notAdded.filter((o) => o.reason !== ALREADY_IMPORTED).map((o) => line(o.status, o.file, o.reason)),
    ...summary.warnings.map((o) => line(`${o.status}, with a warning`, o.file, o.reason)),
    ...summary.skippedEntries.map((entry) => line('skipped', entry.path, entry.reason)),
  ];
}

function report(summary: ImportSummary, folder: string): void {
  if (process.stdout.isTTY) process.stdout.write('\n');
  for (const line of fileLines(summary, folder)) console.log(line);
  console.log(
    `Imported ${summary.added} of ${summary.total} files in ${(summary.ms / 1000).toFixed(1)} s ` +
      `(${rate(summary.total, summary.ms)} files/s): ${summary.updated} updated, ${summary.skipped} skipped, ` +
      `${summary.failed} failed.`,
  );
}

/** A watch pass: a line per file added, updated, removed or refused (unchanged files say nothing). */
function reportPass({ summary, removed }: WatchPass, folder: string): void {
  const time = new Date().toLocaleTimeString();
  for (const line of fileLines(summary, folder)) console.log(`${time} ${line}`);
  if (summary.added + summary.updated > 0) console.log(`${time} added ${summary.added}, updated ${summary.updated}`);
  for (const file of removed) console.log(`${time} removed: ${shown(folder, file)}`);
}

async function main(): Promise<number> {
  const args = readArguments(process.argv.slice(2));
  lowerPriority(args.nice);
  // npm runs the workspace script in apps/server; paths (the folder, a relative DATA_DIR) are meant from where the user
  // typed the command, as for `npm start`.
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const folder = path.resolve(cwd, args.folder);
  if (!(await stat(folder).catch(() => null))?.isDirectory()) throw new UsageError(`Not a folder: ${folder}`);

  const config = loadConfig(process.env, cwd);
  const database = createDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    await migrateToLatest(database.db);
    // The same blob location as the server (main.ts).
    const store = await createBlobStore(config);
    const into = config.databaseUrl === null ? printablePath(config.dataDir) : 'PostgreSQL';
    console.log(`Importing ${printablePath(folder)} into ${into}…`);
    const ffmpeg = await findFfmpeg(config.transcode.ffmpegPath);
    if (ffmpeg === null) console.log('ffmpeg was not found: truncated MP3, FLAC, Ogg and M4A files are not detected.');
    const options = {
      endCheck: new AudioEndCheck(ffmpeg),
      concurrency: args.concurrency,
      batchSize: args.batchSize,
      ...(args.defaultGenre === undefined ? {} : { defaultGenre: args.defaultGenre }),
    };
    // The same catalogue services as the server's (composition.ts), over this database and store.
    const catalogue = composeCatalogue({ db: database.db, dialect: database.dialect, blobs: store });
    try {
      if (args.watch) {
        await watchUntilStopped(catalogue, store, folder, options);
        return 0;
      }
      const summary = await importFolder(catalogue, store, folder, { ...options, onProgress: progressPrinter() });
      report(summary, folder);
      return summary.failed > 0 ? 1 : 0;
    } finally {
      await catalogue.vocabularyUpkeep.stop();
    }
  } finally {
    await database.destroy();
  }
}

/** `--watch`: the folder imported, then kept in step until Ctrl+C (or SIGTERM). */
async function watchUntilStopped(
  catalogue: Catalogue,
  store: BlobStore,
  folder: string,
  options: ImportOptions,
): Promise<void> {
  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
  let first = true;
  await watchFolder(catalogue, store, folder, {
    ...options,
    signal: stop.signal,
    onPass: (pass) => {
      if (first) {
        report(pass.summary, folder);
        for (const file of pass.removed) console.log(`removed: ${shown(folder, file)}`);
        console.log(`Watching ${printablePath(folder)} for new, changed and removed files (Ctrl+C to stop)…`);
        first = false;
      } else {
        reportPass(pass, folder);
      }
    },
  });
  console.log('Stopped watching.');
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof ConfigError) {
      console.error(printablePath(error.message));
      process.exitCode = 2;
      return;
    }
    console.error(error instanceof Error ? `Import failed: ${printablePath(error.message)}` : error);
    process.exitCode = 1;
  },
);
