import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/**
 * The dashboard's first screen in one chunk (issue 26). Left to itself, the bundler splits what the layout and the
 * first pages share into some 60 small chunks, which a browser fetches six at a time over HTTP/1.1: about 330 ms of a
 * cold start on this machine. Everything those pages use goes into the chunk named `dashboard`, except what the
 * signed-out page uses (it stays small: the README's figure) and what the router's chunk already holds.
 */
export const DASHBOARD_CHUNK = 'dashboard';

/** What rolldown's chunking hands a group's name function: the module graph of the build. */
interface ChunkingContext {
  getModuleInfo(id: string): { importedIds: readonly string[]; code: string | null; exports: string[] } | null;
}

const source = (path: string): string => fileURLToPath(new URL(`./src/${path}`, import.meta.url));
const contract = (path: string): string =>
  fileURLToPath(new URL(`../../packages/contract/src/${path}`, import.meta.url));

/** What a signed-out visitor loads: the entry, the landing page, its forms' checks (on first submit), the router. */
const SIGNED_OUT = [
  source('main.tsx'),
  source('features/landing/HomePage.tsx'),
  source('features/landing/validate.ts'),
  source('app/RoutedApp.tsx'),
];

/** What a signed-in start at /dashboard or /dashboard/songs loads after the entry (app/pages.tsx preloadPages). */
const SIGNED_IN = [
  source('app/DashboardLayout.tsx'),
  source('features/dashboard/DashboardHomePage.tsx'),
  source('app/SongsPage.tsx'),
  source('features/songs/useSongs.ts'),
];

/** The contract's barrels: files of `export * from` lines only. The web app imports everything through the first. */
const BARRELS = new Set([contract('index.ts'), contract('schemas.ts')]);
const CONTRACT_DIR = contract('');

/** The names a module imports from '@tonearm/contract' (type imports are gone from the transformed code). */
function contractNames(code: string): string[] {
  const names: string[] = [];
  for (const [, list = ''] of code.matchAll(/import\s*\{([^}]*)\}\s*from\s*["']@tonearm\/contract["']/g)) {
    for (const part of list.split(',')) {
      const name = part.trim().split(/\s+as\s+/)[0];
      if (name) names.push(name);
    }
  }
  return names;
}

/** The contract module that declares each exported name (the barrels only pass names on). */
function contractExporters(ctx: ChunkingContext, modules: Iterable<string>): Map<string, string> {
  const byName = new Map<string, string>();
  for (const id of modules) {
    if (!id.startsWith(CONTRACT_DIR) || BARRELS.has(id)) continue;
    for (const name of ctx.getModuleInfo(id)?.exports ?? []) byName.set(name, id);
  }
  return byName;
}

/** Every module `roots` import statically, themselves included, through the barrels too. */
function staticClosure(ctx: ChunkingContext, roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(ctx.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

/**
 * The modules `roots` use: their static imports, where an import of the contract's barrel counts only the modules
 * that declare the names imported (the bundler leaves the rest of the contract out of that chunk too).
 */
function usedModules(ctx: ChunkingContext, roots: readonly string[], exporters: Map<string, string>): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (seen.has(id) || BARRELS.has(id)) continue;
    seen.add(id);
    const info = ctx.getModuleInfo(id);
    if (info === null) continue;
    stack.push(...info.importedIds.filter((imported) => !BARRELS.has(imported)));
    if (info.importedIds.some((imported) => BARRELS.has(imported))) {
      for (const name of contractNames(info.code ?? '')) {
        const declaredIn = exporters.get(name);
        if (declaredIn !== undefined) stack.push(declaredIn);
      }
    }
  }
  return seen;
}

const dashboardModules = new WeakMap<ChunkingContext, Set<string>>();

/** The name function of the build's chunk group: `dashboard` for the modules only the dashboard uses at first. */
export function dashboardChunk(id: string, ctx: ChunkingContext): string | null {
  let modules = dashboardModules.get(ctx);
  if (modules === undefined) {
    const exporters = contractExporters(ctx, staticClosure(ctx, [...SIGNED_OUT, ...SIGNED_IN]));
    const signedOut = usedModules(ctx, SIGNED_OUT, exporters);
    modules = new Set([...usedModules(ctx, SIGNED_IN, exporters)].filter((module) => !signedOut.has(module)));
    dashboardModules.set(ctx, modules);
  }
  return modules.has(id) ? DASHBOARD_CHUNK : null;
}

/**
 * Fails the build when the grouping went wrong: a cycle of static imports between chunks (a module could then run
 * before one it reads), or the entry loading the dashboard's chunk (the signed-out page would carry it).
 */
export function checkChunkGraph(): Plugin {
  return {
    name: 'tonearm:check-chunk-graph',
    apply: 'build',
    generateBundle(_options, bundle) {
      const imports = new Map<string, readonly string[]>();
      for (const [file, output] of Object.entries(bundle))
        if (output.type === 'chunk') imports.set(file, output.imports);
      const visiting = new Set<string>();
      const done = new Set<string>();
      const visit = (file: string, path: readonly string[]): void => {
        if (done.has(file)) return;
        if (visiting.has(file)) throw new Error(`chunks import each other: ${[...path, file].join(' → ')}`);
        visiting.add(file);
        for (const imported of imports.get(file) ?? []) visit(imported, [...path, file]);
        visiting.delete(file);
        done.add(file);
      };
      for (const file of imports.keys()) visit(file, []);
      for (const [file, output] of Object.entries(bundle)) {
        if (output.type !== 'chunk' || !output.isEntry) continue;
        const loaded = new Set<string>();
        const walk = (name: string): void => {
          if (loaded.has(name)) return;
          loaded.add(name);
          for (const imported of imports.get(name) ?? []) walk(imported);
        };
        walk(file);
        const dashboard = [...loaded].find((name) => {
          const chunk = bundle[name];
          return chunk?.type === 'chunk' && chunk.name === DASHBOARD_CHUNK;
        });
        if (dashboard !== undefined) throw new Error(`the entry ${file} loads the ${DASHBOARD_CHUNK} chunk`);
      }
    },
  };
}
