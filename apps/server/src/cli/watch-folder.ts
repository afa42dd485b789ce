import { watch } from 'node:fs';
import path from 'node:path';
import type { Catalogue } from '../modules/catalogue.js';
import type { BlobStore } from '../storage/blob-store.js';
import { importFiles, type ImportOptions, type ImportSummary } from './import-folder.js';
import { MusicFolder, type SkippedEntry } from '../modules/libraries/music-folder.js';

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

/** Whether the music folder's rule still finds an imported file at `file` (not a link out of it, a FIFO…). */
async function isStillThere(folder: MusicFolder, file: string): Promise<boolean> {
  return (await folder.resolve(file).catch(() => null))?.kind === 'file';
}

/**
 * Brings the catalogue in line with `scopes` (folders or files under `root`, as the events named them): each is walked
 * under the music folder's rule, as the plain import walks the whole folder (music-folder.ts); new and changed files
 * are imported (importFiles), and the songs of imported files that are no longer there, or no longer pass the rule, are
 * deleted, with their albums when empty.
 */
export async function reconcile(
  catalogue: WatchCatalogue,
  store: BlobStore,
  root: string,
  scopes: readonly string[],
  options: ImportOptions,
): Promise<WatchPass> {
  const folder = await MusicFolder.at(root);
  const present = new Set<string>();
  const skipped = new Map<string, SkippedEntry>();
  const gone: { path: string; song_id: number }[] = [];
  for (const scope of scopes) {
    const walk = await folder.walk(scope);
    for (const file of walk.files) present.add(file);
    for (const entry of walk.skipped) skipped.set(entry.path, entry);
    const known = await catalogue.imports.listSources(scope);
    const exact = await catalogue.imports.findSource(scope);
    for (const source of exact === undefined ? known : [...known, exact]) {
      if (!present.has(source.path) && !(await isStillThere(folder, source.path))) gone.push(source);
    }
  }
  const walked = {
    files: [...present].sort(),
    skipped: [...skipped.values()].sort((a, b) => a.path.localeCompare(b.path)),
  };
  const summary = await importFiles(catalogue, store, folder, walked, options);
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
