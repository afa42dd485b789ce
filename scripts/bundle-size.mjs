// `npm run bench:bundle [-- BASELINE.json]`: what the browser loads before the first screen, from the built web app
// (apps/web/dist), raw and gzip -9, for two first loads:
// - signed out at `/`: the entry script with its imports and stylesheets, and the landing page's chunk with its own;
// - signed in at /dashboard: the entry, the router's chunk and the chunk of the dashboard's first screen (the layout
//   and the home page, apps/web/chunk-groups.ts), which app/pages.tsx preloadPages fetches beside the router's.
// The chunks come from Vite's manifest (dist/.vite/manifest.json). With a baseline (a file this script wrote with
// --json), prints the differences. Builds the web app first when it is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ensureWebBuilt, root } from './lib.mjs';

const dist = join(root, 'apps/web/dist');

/** The modules (Vite manifest keys) each first load starts from: the entry and the pages it loads at once. */
export const FIRST_LOADS = {
  signedOut: ['index.html', 'src/features/landing/HomePage.tsx'],
  signedIn: ['index.html', 'src/app/RoutedApp.tsx', 'chunk:dashboard'],
};

/**
 * A manifest key, or `chunk:<name>` for a chunk the build names itself (apps/web/chunk-groups.ts puts the dashboard's
 * layout and first pages into the chunk named `dashboard`: they have no manifest key of their own).
 */
function keyOf(manifest, key) {
  if (!key.startsWith('chunk:')) return key;
  const name = key.slice('chunk:'.length);
  const found = Object.keys(manifest).find(
    (candidate) => manifest[candidate].name === name && !manifest[candidate].src,
  );
  if (found === undefined) throw new Error(`the build has no chunk named ${name}`);
  return found;
}

/** The files (JS and CSS) these manifest entries load: each one's chunk, its static imports' and their stylesheets. */
function filesOf(manifest, keys) {
  const files = new Set();
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (chunk === undefined) throw new Error(`${key} is not in the build's manifest`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach((key) => visit(keyOf(manifest, key)));
  return [...files];
}

function measure(fileNames) {
  const files = fileNames.map((file) => {
    const bytes = readFileSync(join(dist, file));
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
  const sum = (key, kind) =>
    files.filter((f) => kind === undefined || f.file.endsWith(kind)).reduce((total, f) => total + f[key], 0);
  return {
    files,
    total: { raw: sum('raw'), gzip: sum('gzip') },
    js: { raw: sum('raw', '.js'), gzip: sum('gzip', '.js') },
    css: { raw: sum('raw', '.css'), gzip: sum('gzip', '.css') },
  };
}

const args = process.argv.slice(2);
const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined;
const baselineFile = args.find((arg, index) => !arg.startsWith('--') && args[index - 1] !== '--json');

const build = await ensureWebBuilt();
if (build.code !== 0) process.exit(build.code);
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const now = Object.fromEntries(
  Object.entries(FIRST_LOADS).map(([name, keys]) => [name, measure(filesOf(manifest, keys))]),
);
const before = baselineFile === undefined ? undefined : JSON.parse(readFileSync(baselineFile, 'utf8'));

const row = (name, m) => console.log(`${name.padEnd(46)} ${String(m.raw).padStart(8)} ${String(m.gzip).padStart(8)}`);
const TITLES = { signedOut: 'signed out, / (the sign-in page)', signedIn: 'signed in, /dashboard' };
for (const [name, m] of Object.entries(now)) {
  console.log(`\n${TITLES[name]}${' '.repeat(Math.max(1, 47 - TITLES[name].length))}     raw     gzip`);
  for (const { file, raw, gzip } of m.files) row(`  ${file}`, { raw, gzip });
  row(`${name} first-load JS`, m.js);
  row(`${name} first-load CSS`, m.css);
  row(`${name} first-load total`, m.total);
  const was = before?.[name]?.total;
  if (was !== undefined) {
    const delta = (key) => `${m.total[key] - was[key] >= 0 ? '+' : ''}${m.total[key] - was[key]}`;
    console.log(`  against ${baselineFile}: raw ${delta('raw')}, gzip ${delta('gzip')}`);
  }
}
if (jsonOut !== undefined) writeFileSync(jsonOut, `${JSON.stringify(now, null, 2)}\n`);
