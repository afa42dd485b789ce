// `node scripts/compare-screenshots.mjs BEFORE_DIR AFTER_DIR [DIFF_DIR]`: compares the PNGs both folders hold, pixel
// by pixel, prints how many pixels differ in each, and writes a diff image per differing file to DIFF_DIR (default
// .tmp/screenshot-diffs). Some content varies between runs by design (shuffled order, random names, times): look at
// the diff images before calling a difference a regression.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

const [before, after, diffDir = join('.tmp', 'screenshot-diffs')] = process.argv.slice(2);
if (!before || !after) {
  console.error('usage: node scripts/compare-screenshots.mjs BEFORE_DIR AFTER_DIR [DIFF_DIR]');
  process.exit(2);
}

const pngs = (dir) => new Set(readdirSync(dir).filter((name) => name.endsWith('.png')));
const beforeFiles = pngs(before);
const afterFiles = pngs(after);
const names = [...new Set([...beforeFiles, ...afterFiles])].sort();

/** Differing pixels of two same-sized images; also writes the diff image when they differ. */
function compare(name) {
  const a = PNG.sync.read(readFileSync(join(before, name)));
  const b = PNG.sync.read(readFileSync(join(after, name)));
  if (a.width !== b.width || a.height !== b.height) {
    return { note: `size ${a.width}×${a.height} → ${b.width}×${b.height}` };
  }
  const diff = new PNG({ width: a.width, height: a.height });
  const pixels = pixelmatch(a.data, b.data, diff.data, a.width, a.height, { threshold: 0.1 });
  if (pixels > 0) writeFileSync(join(diffDir, name), PNG.sync.write(diff));
  return { pixels, total: a.width * a.height };
}

mkdirSync(diffDir, { recursive: true });
const rows = names.map((name) => {
  if (!beforeFiles.has(name)) return [name, 'only after', ''];
  if (!afterFiles.has(name)) return [name, 'only before', ''];
  const { pixels, total, note } = compare(name);
  if (note) return [name, note, ''];
  return [name, String(pixels), `${((100 * pixels) / total).toFixed(3)} %`];
});

const width = Math.max(...rows.map(([name]) => name.length), 4);
console.log(`${'file'.padEnd(width)}  ${'pixels'.padStart(11)}  ${'share'.padStart(9)}`);
for (const [name, pixels, share] of rows)
  console.log(`${name.padEnd(width)}  ${pixels.padStart(11)}  ${share.padStart(9)}`);
const differing = rows.filter(([, pixels]) => pixels !== '0').length;
console.log(`\n${differing} of ${rows.length} differ; diff images in ${diffDir}`);
