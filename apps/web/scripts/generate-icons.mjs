// Renders the app icons of the web app manifest from the Tonearm mark (public/favicon.svg) with sharp, which the
// server already depends on. Run once after changing the mark: node apps/web/scripts/generate-icons.mjs
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const publicDir = join(dirname(fileURLToPath(import.meta.url)), '../public');
const BACKGROUND = '#09090b';

/** The mark on the app's dark background; `inset` leaves the safe zone a maskable icon needs (80 % circle). */
function iconSvg(mark, inset) {
  const inner = mark.replace(/^[\s\S]*?<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '');
  const size = 32 / (1 - 2 * inset);
  const offset = -(size - 32) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${offset} ${offset} ${size} ${size}">
  <rect x="${offset}" y="${offset}" width="${size}" height="${size}" fill="${BACKGROUND}"/>${inner}</svg>`;
}

const mark = await readFile(join(publicDir, 'favicon.svg'), 'utf8');
const icons = [
  { file: 'pwa-192.png', size: 192, inset: 0.08 },
  { file: 'pwa-512.png', size: 512, inset: 0.08 },
  { file: 'maskable-512.png', size: 512, inset: 0.2 },
  { file: 'apple-touch-icon.png', size: 180, inset: 0.12 },
];
for (const { file, size, inset } of icons) {
  const png = await sharp(Buffer.from(iconSvg(mark, inset)), { density: 72 * (size / 32) })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer();
  await writeFile(join(publicDir, file), png);
  console.log(`${file}: ${png.length} bytes`);
}
