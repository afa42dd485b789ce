import { plainText } from '@tonearm/contract';
import { loadSharp } from '../media/sharp-loader.js';
import { seededRandom } from './synth.js';

/** Each demo artist has a visual style its covers share, so a catalogue page looks curated. */
export type ArtStyle = 'grid' | 'sunset' | 'shards' | 'rings' | 'waves';

export const ARTWORK_SIZE = 640;

const FONT = "'DejaVu Sans', 'Liberation Sans', Arial, sans-serif";

/** A square cover: the style's shapes in a seeded palette, with the title and the artist's name. */
export async function renderCover(title: string, artistName: string, style: ArtStyle, seed: number): Promise<Buffer> {
  const random = seededRandom(seed);
  const palette = makePalette(random);
  const svg = frame(palette, [
    shapes(style, palette, random),
    `<rect x="0" y="470" width="640" height="170" fill="#000" opacity="0.28"/>`,
    caption(title, 40, 548, fitFontSize(title, 54), 'bold'),
    caption(artistName, 40, 598, 28, 'normal', 0.85),
  ]);
  return toJpeg(svg);
}

/** An artist picture: the style's shapes behind a disc with the artist's initials, and the name. */
export async function renderArtistImage(name: string, style: ArtStyle, seed: number): Promise<Buffer> {
  const random = seededRandom(seed);
  const palette = makePalette(random);
  const initials = name
    .split(/\s+/)
    .filter((word) => /^[A-Z]/.test(word))
    .slice(0, 2)
    .map((word) => word[0])
    .join('');
  const svg = frame(palette, [
    shapes(style, palette, random),
    `<circle cx="320" cy="280" r="170" fill="${palette.dark}" opacity="0.82"/>`,
    `<circle cx="320" cy="280" r="170" fill="none" stroke="${palette.light}" stroke-width="6"/>`,
    `<text x="320" y="338" text-anchor="middle" font-family="${FONT}" font-size="160" font-weight="bold" fill="${palette.light}">${escapeXml(initials)}</text>`,
    // Artist pictures are shown cropped to a circle: the name sits where the circle is still ~510 px wide, sized to fit.
    `<text x="320" y="510" text-anchor="middle" font-family="${FONT}" font-size="${Math.min(44, Math.floor(720 / Math.max(1, name.length)))}" font-weight="bold" fill="#fff">${escapeXml(name)}</text>`,
  ]);
  return toJpeg(svg);
}

interface Palette {
  from: string;
  to: string;
  accent: string;
  light: string;
  dark: string;
}

function makePalette(random: () => number): Palette {
  const hue = random() * 360;
  const shift = 40 + random() * 110;
  return {
    from: hsl(hue, 70, 42),
    to: hsl(hue + shift, 65, 22),
    accent: hsl(hue + shift / 2 + 180, 85, 62),
    light: hsl(hue + 20, 90, 88),
    dark: hsl(hue + shift, 60, 12),
  };
}

function frame(palette: Palette, layers: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${ARTWORK_SIZE}" height="${ARTWORK_SIZE}" viewBox="0 0 640 640">`,
    '<defs>',
    `<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${palette.from}"/><stop offset="1" stop-color="${palette.to}"/></linearGradient>`,
    `<radialGradient id="glow" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="${palette.accent}" stop-opacity="0.9"/><stop offset="1" stop-color="${palette.accent}" stop-opacity="0"/></radialGradient>`,
    '</defs>',
    '<rect width="640" height="640" fill="url(#bg)"/>',
    ...layers,
    '</svg>',
  ].join('');
}

function shapes(style: ArtStyle, palette: Palette, random: () => number): string {
  switch (style) {
    case 'grid':
      return gridShapes(palette, random);
    case 'sunset':
      return sunsetShapes(palette, random);
    case 'shards':
      return shardShapes(palette, random);
    case 'rings':
      return ringShapes(palette, random);
    case 'waves':
      return waveShapes(palette, random);
  }
}

/** A synthwave horizon: a glowing sun over a perspective grid. */
function gridShapes(palette: Palette, random: () => number): string {
  const horizon = 250 + Math.round(random() * 60);
  const sunX = 180 + Math.round(random() * 280);
  const parts = [`<circle cx="${sunX}" cy="${horizon}" r="150" fill="url(#glow)"/>`];
  parts.push(`<circle cx="${sunX}" cy="${horizon}" r="${70 + Math.round(random() * 40)}" fill="${palette.accent}"/>`);
  parts.push(
    `<rect x="0" y="${horizon}" width="640" height="${640 - horizon}" fill="${palette.dark}" opacity="0.85"/>`,
  );
  for (let x = -640; x <= 1280; x += 80) {
    parts.push(line(320, horizon, x, 640, palette.accent, 2, 0.6));
  }
  for (let step = 1; step < 9; step++) {
    const y = horizon + (640 - horizon) * (step / 8) ** 1.8;
    parts.push(line(0, y, 640, y, palette.accent, 2, 0.6));
  }
  return parts.join('');
}

/** A striped low sun behind layered hills. */
function sunsetShapes(palette: Palette, random: () => number): string {
  const sunY = 220 + Math.round(random() * 80);
  const parts = [`<circle cx="320" cy="${sunY}" r="170" fill="${palette.light}" opacity="0.9"/>`];
  for (let band = 0; band < 5; band++) {
    const y = sunY + 20 + band * 30;
    parts.push(`<rect x="120" y="${y}" width="400" height="${6 + band * 3}" fill="${palette.from}"/>`);
  }
  for (let layer = 0; layer < 3; layer++) {
    const base = 360 + layer * 60;
    let path = `M0 ${base}`;
    for (let x = 0; x <= 640; x += 80) path += ` Q${x + 40} ${base - 30 - random() * 70} ${x + 80} ${base}`;
    path += ' L640 640 L0 640 Z';
    parts.push(`<path d="${path}" fill="${palette.dark}" opacity="${0.45 + layer * 0.2}"/>`);
  }
  return parts.join('');
}

/** Overlapping translucent triangles, like torn paper. */
function shardShapes(palette: Palette, random: () => number): string {
  const colors = [palette.accent, palette.light, palette.dark, palette.from];
  const parts: string[] = [];
  for (let index = 0; index < 14; index++) {
    const points = Array.from({ length: 3 }, () => `${Math.round(random() * 640)},${Math.round(random() * 520)}`);
    const color = colors[index % colors.length] ?? palette.accent;
    parts.push(
      `<polygon points="${points.join(' ')}" fill="${color}" opacity="${(0.25 + random() * 0.5).toFixed(2)}"/>`,
    );
  }
  return parts.join('');
}

/** Concentric rings and a scatter of mirror-ball dots. */
function ringShapes(palette: Palette, random: () => number): string {
  const cx = 220 + Math.round(random() * 200);
  const cy = 200 + Math.round(random() * 120);
  const parts = [`<circle cx="${cx}" cy="${cy}" r="260" fill="url(#glow)"/>`];
  for (let ring = 1; ring <= 9; ring++) {
    const color = ring % 2 === 0 ? palette.light : palette.accent;
    parts.push(
      `<circle cx="${cx}" cy="${cy}" r="${ring * 30}" fill="none" stroke="${color}" stroke-width="${ring % 3 === 0 ? 8 : 3}" opacity="0.7"/>`,
    );
  }
  for (let dot = 0; dot < 40; dot++) {
    const x = Math.round(random() * 640);
    const y = Math.round(random() * 470);
    parts.push(
      `<circle cx="${x}" cy="${y}" r="${(2 + random() * 5).toFixed(1)}" fill="${palette.light}" opacity="0.8"/>`,
    );
  }
  return parts.join('');
}

/** Slow, overlapping sine waves. */
function waveShapes(palette: Palette, random: () => number): string {
  const parts: string[] = [];
  for (let wave = 0; wave < 7; wave++) {
    const baseline = 120 + wave * 55;
    const amplitude = 20 + random() * 50;
    const frequency = 1 + random() * 2.5;
    const shift = random() * Math.PI * 2;
    const points: string[] = [];
    for (let x = 0; x <= 640; x += 16) {
      const y = baseline + amplitude * Math.sin((x / 640) * Math.PI * 2 * frequency + shift);
      points.push(`${x},${y.toFixed(1)}`);
    }
    const color = wave % 2 === 0 ? palette.light : palette.accent;
    parts.push(
      `<polyline points="${points.join(' ')}" fill="none" stroke="${color}" stroke-width="${3 + wave}" opacity="0.55"/>`,
    );
  }
  return parts.join('');
}

function caption(text: string, x: number, y: number, size: number, weight: string, opacity = 1): string {
  const escaped = escapeXml(text);
  return (
    `<text x="${x + 2}" y="${y + 3}" font-family="${FONT}" font-size="${size}" font-weight="${weight}" fill="#000" opacity="0.35">${escaped}</text>` +
    `<text x="${x}" y="${y}" font-family="${FONT}" font-size="${size}" font-weight="${weight}" fill="#fff" opacity="${opacity}">${escaped}</text>`
  );
}

function line(x1: number, y1: number, x2: number, y2: number, color: string, width: number, opacity: number): string {
  return `<line x1="${x1}" y1="${y1.toFixed(1)}" x2="${x2}" y2="${y2.toFixed(1)}" stroke="${color}" stroke-width="${width}" opacity="${opacity}"/>`;
}

/** Shrinks long titles so they fit the 560 px text column. */
function fitFontSize(text: string, largest: number): number {
  return Math.min(largest, Math.floor(860 / Math.max(1, text.length)));
}

/** Text as SVG may hold it: without what XML refuses (controls, U+FFFE, U+FFFF; plainText), markup escaped. */
function escapeXml(text: string): string {
  return plainText(text).replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function hsl(hue: number, saturation: number, lightness: number): string {
  const h = (((hue % 360) + 360) % 360) / 360;
  const s = saturation / 100;
  const l = lightness / 100;
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (offset: number) => {
    let t = h + offset;
    if (t < 0) t += 1;
    if (t > 1) t -= 1;
    const value = t < 1 / 6 ? p + (q - p) * 6 * t : t < 1 / 2 ? q : t < 2 / 3 ? p + (q - p) * (2 / 3 - t) * 6 : p;
    return Math.round(value * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(1 / 3)}${channel(0)}${channel(-1 / 3)}`;
}

async function toJpeg(svg: string): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(Buffer.from(svg)).jpeg({ quality: 86 }).toBuffer();
}
