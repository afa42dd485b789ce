import { watch } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Catalogue } from '../modules/catalogue.js';
import type { BlobStore } from '../storage/blob-store.js';
import {
  AUDIO_EXTENSIONS,
  findAudioFiles,
  importFiles,
  type ImportOptions,
  type ImportSummary,
} from './import-folder.js';

/** One pass over what changed: the import's summary, and the songs of files that are gone. */
export interface WatchPass {
  summary: ImportSummary;
  /** Files whose songs were deleted because the files were removed. */
  removed: string[];
}

export interface WatchOptions extends ImportOptions {
  /** A pass starts once the folder has been quiet this long (a copy in progress keeps it busy); default 2 s. */
  quietMs?: number;
  /** Told of each pass, the first (the whole folder) included. */
  onPass?: (pass: WatchPass) => void;
  /** Stops watching. */
  signal?: AbortSignal;
}

type WatchCatalogue = Pick<Catalogue, 'songs' | 'imports'>;

const DEFAULT_QUIET_MS = 2000;

/** Whether `file` under `root` is one the import reads: an audio extension, no hidden file or folder on the way. */
function isAudioFile(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  if (relative.startsWith('..') || relative.split(path.sep).some((part) => part.startsWith('.'))) return false;
  return AUDIO_EXTENSIONS.has(path.extname(file).slice(1).toLowerCase());
}

/** The audio files at `scope` now (a folder's, recursively, or the one file), and whether it is a folder. */
async function filesAt(root: string, scope: string): Promise<{ files: string[]; folder: boolean }> {
  const info = await stat(scope).catch(() => null);
  if (info === null) return { files: [], folder: true };
  if (info.isDirectory())
    return { files: (await findAudioFiles(scope)).filter((f) => isAudioFile(root, f)), folder: true };
  return { files: info.isFile() && isAudioFile(root, scope) ? [scope] : [], folder: false };
}

/**
 * Brings the catalogue in line with `scopes` (folders or files under `root`): new and changed files are imported
 * (importFiles), and the songs of imported files that are no longer there are deleted, with their albums when empty.
 */
export async function reconcile(
  catalogue: WatchCatalogue,
  store: BlobStore,
  root: string,
  scopes: readonly string[],
  options: ImportOptions,
): Promise<WatchPass> {
  const present = new Set<string>();
  const gone: { path: string; song_id: number }[] = [];
  for (const scope of scopes) {
    const { files } = await filesAt(root, scope);
    for (const file of files) present.add(file);
    const known = await catalogue.imports.listSources(scope);
    const exact = await catalogue.imports.findSource(scope);
    for (const source of exact === undefined ? known : [...known, exact]) {
      if (!present.has(source.path) && (await stat(source.path).catch(() => null)) === null) gone.push(source);
    }
  }
  const summary = await importFiles(catalogue, store, [...present].sort(), options);
  const removed: string[] = [];
  for (const source of new Map(gone.map((g) => [g.path, g])).values()) {
    await catalogue.imports.removeSong(source.song_id);
    removed.push(source.path);
  }
  return { summary, removed: removed.sort() };
}

/** The folders and files the events named, with nested ones folded into the folder that holds them. */
function outermost(paths: Iterable<string>): string[] {
  const sorted = [...new Set(paths)].sort();
  const kept: string[] = [];
  for (const candidate of sorted) {
    if (!kept.some((outer) => candidate.startsWith(`${outer}${path.sep}`))) kept.push(candidate);
  }
  return kept;
}

/**
 * Imports `folder`, then keeps watching it: new, changed and removed files are picked up while the server runs
 * (catalogue_version tells its song pages; the import writes in batches at a low priority, so listeners are not kept
 * waiting). Events are gathered until the folder has been quiet for `quietMs`, then one pass reconciles the folders
 * they named; passes never overlap. Resolves when `signal` aborts.
 */
export async function watchFolder(
  catalogue: WatchCatalogue,
  store: BlobStore,
  folder: string,
  options: WatchOptions = {},
): Promise<void> {
  const root = path.resolve(folder);
  const quietMs = options.quietMs ?? DEFAULT_QUIET_MS;
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();

  const runPass = (scopes: string[]) => {
    running = running.then(async () => {
      options.onPass?.(await reconcile(catalogue, store, root, scopes, options));
    });
  };

  // Watch first, so that nothing written during the first pass is missed.
  const watcher = watch(root, { recursive: true, signal: options.signal }, (_event, name) => {
    pending.add(name === null ? root : path.join(root, name));
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      const scopes = outermost(pending);
      pending.clear();
      runPass(scopes);
    }, quietMs);
  });
  runPass([root]);

  await new Promise<void>((resolve) => {
    const stop = () => {
      if (timer !== null) clearTimeout(timer);
      watcher.close();
      resolve();
    };
    if (options.signal?.aborted === true) stop();
    else options.signal?.addEventListener('abort', stop, { once: true });
    watcher.on('error', stop);
  });
  await running;
}
