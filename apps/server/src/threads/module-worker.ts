import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts the worker thread of module `name` (say 'scan-worker') that sits beside the caller (`callerUrl`, its
 * import.meta.url): the built server's dist/<name>.js beside the bundle or its chunk (scripts/build-server.mjs builds
 * each as an entry), else the TypeScript source beside the caller (tests, `npm run dev`), loaded through tsx.
 */
export function startModuleWorker(callerUrl: string, name: string, options: WorkerOptions = {}): Worker {
  const built = [`./${name}.js`, `../${name}.js`]
    .map((file) => new URL(file, callerUrl))
    .find((url) => url.pathname.endsWith(`/dist/${name}.js`) && existsSync(fileURLToPath(url)));
  if (built !== undefined) return new Worker(built, options);
  const source = new URL(`./${name}.ts`, callerUrl).href;
  // require.resolve answers tsx's CommonJS entry, whose hooks cannot load inside a worker: its ES module is beside it.
  const api = createRequire(import.meta.url)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs');
  const tsx = pathToFileURL(api).href;
  return new Worker(
    `import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${JSON.stringify(source)}, ${JSON.stringify(source)}))`,
    { ...options, eval: true },
  );
}
