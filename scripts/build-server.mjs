// Builds the server into apps/server/dist/main.js (one ESM bundle of the workspace code, @tonearm/contract included,
// every package in node_modules left external), when it is missing or older than its sources. `npm start`, the
// e2e launcher and the benchmark run that bundle with plain `node`: no TypeScript loader (tsx and its esbuild
// service) in the running server, which saves memory and start-up time. `npm run dev` and the import CLI keep tsx.
// Run directly (`node scripts/build-server.mjs [--force]`) or through ensureServerBuilt().
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newestMtime, root } from './lib.mjs';

export const serverEntry = join(root, 'apps/server/dist/main.js');

const serverSources = [
  'apps/server/src',
  'apps/server/package.json',
  'packages/contract/src',
  'scripts/build-server.mjs',
];

/** True when the bundle is missing or older than any server or contract source. */
export function serverBuildIsStale() {
  if (!existsSync(serverEntry)) return true;
  const builtAt = statSync(serverEntry).mtimeMs;
  return serverSources.some((source) => newestMtime(join(root, source)) > builtAt);
}

/** Workspace packages (TypeScript source) are bundled; everything else is imported from node_modules at run time. */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@tonearm/') ? undefined : { external: true },
    );
  },
};

/** Chunks of earlier builds (their names carry a content hash): the new main.js no longer imports them. */
function removeStaleChunks(written) {
  const chunks = join(dirname(serverEntry), 'chunks');
  if (!existsSync(chunks)) return;
  for (const name of readdirSync(chunks)) {
    // Another build's files being written (name.js.<pid>.tmp) are left to it.
    if (/\.js(\.map)?$/.test(name) && !written.has(join(chunks, name))) rmSync(join(chunks, name), { force: true });
  }
}

export async function buildServer() {
  const started = Date.now();
  // esbuild is installed with tsx (a dependency of the server) and vite; imported here only when a build is due.
  const { build } = await import('esbuild');
  try {
    const result = await build({
      // The library scan's threads and the audio analysis's thread run modules of their own
      // (apps/server/src/modules/libraries/scan-readers.ts, apps/server/src/modules/analysis/analysis-thread.ts).
      entryPoints: [
        join(root, 'apps/server/src/main.ts'),
        join(root, 'apps/server/src/modules/libraries/scan-worker.ts'),
        join(root, 'apps/server/src/modules/analysis/analysis-worker.ts'),
        join(root, 'apps/server/src/modules/radio/radio-worker.ts'),
      ],
      outdir: dirname(serverEntry),
      entryNames: '[name]',
      // What only some configurations use (the S3 store and its AWS SDK, the metrics and prom-client) is imported
      // dynamically into chunks of its own, so a server without them never loads those packages (about 10 MiB of RSS).
      splitting: true,
      chunkNames: 'chunks/[name]-[hash]',
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // Maps for debugging (`node --enable-source-maps`); without the sources inlined they stay small.
      sourcemap: 'linked',
      sourcesContent: false,
      plugins: [externalPackages],
      logLevel: 'warning',
      write: false,
    });
    // Written aside and renamed into place: a server starting meanwhile (another test run) never reads half a file.
    for (const file of result.outputFiles) {
      mkdirSync(dirname(file.path), { recursive: true });
      const temporary = `${file.path}.${process.pid}.tmp`;
      writeFileSync(temporary, file.contents);
      renameSync(temporary, file.path);
    }
    removeStaleChunks(new Set(result.outputFiles.map((file) => file.path)));
    return { code: 0, ms: Date.now() - started };
  } catch {
    // esbuild has already printed the errors.
    return { code: 1, ms: Date.now() - started };
  }
}

/**
 * How `npm start` and the benchmark run the built server: `[command, args, env]` (env to add to the environment).
 * Memory settings, measured with `npm run bench:stream` (docs/design.md): V8's young generation at most 2 × 4 MB, and
 * its old generation growing by 30 % over the live size before a full collection, keep the peak RSS under load near
 * 140 MB instead of 250 MB. glibc's malloc gets at most 2 arenas (not one per thread that ever allocated: libvips,
 * libuv) and a fixed 128 KiB mmap threshold, so large buffers (images being processed, the demo's generated audio) go
 * back to the system when freed instead of staying in a fragmented heap: 45 MB less after the demo catalogue is made.
 * An environment that sets either variable keeps its own value.
 */
export function serverCommand() {
  const args = ['--enable-source-maps', '--max-semi-space-size=4', '--heap-growing-percent=30', serverEntry];
  const env = {
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
    MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? '131072',
  };
  return [process.execPath, args, env];
}

export async function ensureServerBuilt() {
  if (!serverBuildIsStale()) return { code: 0, ms: 0 };
  console.log('Building the server (apps/server/dist)…');
  return buildServer();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { code } = process.argv.includes('--force') ? await buildServer() : await ensureServerBuilt();
  process.exitCode = code;
}
