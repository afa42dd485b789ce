// `npm run bench:bundle [-- BASELINE.json]`: what the browser loads before the first screen, from the built web app
// (apps/web/dist): the entry script, the chunks index.html preloads and the stylesheets, raw and gzip -9. With a
// baseline (a file this script wrote with --json), prints the difference. Builds the web app first when it is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ensureWebBuilt, root } from './lib.mjs';

const dist = join(root, 'apps/web/dist');

/** The files index.html makes the browser fetch at start-up. */
function startupFiles() {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  return [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]);
}

function measure() {
  const files = startupFiles().map((file) => {
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
const now = measure();
for (const { file, raw, gzip } of now.files)
  console.log(`${file.padEnd(40)} ${String(raw).padStart(8)} ${String(gzip).padStart(8)}`);
const line = (name, m) => console.log(`${name.padEnd(40)} ${String(m.raw).padStart(8)} ${String(m.gzip).padStart(8)}`);
line('start-up JS', now.js);
line('start-up CSS', now.css);
line('start-up total (raw, gzip bytes)', now.total);
if (baselineFile !== undefined) {
  const before = JSON.parse(readFileSync(baselineFile, 'utf8'));
  const delta = (key) => now.total[key] - before.total[key];
  console.log(
    `against ${baselineFile}: raw ${delta('raw') >= 0 ? '+' : ''}${delta('raw')}, gzip ${delta('gzip') >= 0 ? '+' : ''}${delta('gzip')}`,
  );
}
if (jsonOut !== undefined) writeFileSync(jsonOut, `${JSON.stringify(now, null, 2)}\n`);
