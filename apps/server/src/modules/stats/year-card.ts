import { YEAR_CARD_HEIGHT, YEAR_CARD_WIDTH, type YearSummary } from '@tonearm/contract';
import sharp from 'sharp';

/*
 * "Your year": the listener's year as a PNG card to share, drawn on the server. The card is an SVG built here and
 * rendered by sharp (librsvg), whose text goes through fontconfig: DejaVu Sans is on every Debian machine with
 * fonts-dejavu-core (.ci/run installs it), and any sans-serif font stands in where it is missing.
 */

const FONT = "'DejaVu Sans', 'Liberation Sans', sans-serif";
const MONTH_LETTERS = ['J', 'F', 'M', 'A', 'M', 'J', 'J', 'A', 'S', 'O', 'N', 'D'];
/** Colours of the card: a dark ground, light text, the app's accent for the figures. */
export const CARD_COLOURS = { from: '#1d1640', to: '#0f4c5c', text: '#ffffff', dim: '#b9c6e4', accent: '#ffd166' };

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** At most `max` characters, an ellipsis in place of the rest (the card has no room for a long title). */
function clip(text: string, max: number): string {
  // By grapheme, so that an accent or an emoji is never cut in two.
  const graphemes = Array.from(new Intl.Segmenter('en').segment(text), (part) => part.segment);
  return graphemes.length <= max ? text : `${graphemes.slice(0, max - 1).join('')}…`;
}

const grouped = (value: number) => value.toLocaleString('en-US');

function text(x: number, y: number, size: number, content: string, extra = ''): string {
  return `<text x="${x}" y="${y}" font-size="${size}" ${extra}>${escapeXml(content)}</text>`;
}

/** A numbered list under its heading, one line each. */
function list(x: number, y: number, heading: string, lines: readonly string[]): string {
  const { text: white, dim } = CARD_COLOURS;
  const items = lines.map((line, index) =>
    text(x, y + 52 + index * 46, 32, `${index + 1}. ${clip(line, 48)}`, `fill="${white}"`),
  );
  const empty = lines.length === 0 ? [text(x, y + 52, 32, '—', `fill="${dim}"`)] : [];
  return [text(x, y, 28, heading.toUpperCase(), `fill="${dim}" letter-spacing="3"`), ...items, ...empty].join('');
}

/** Twelve bars, one per month, as high as that month's minutes against the busiest one. */
function monthBars(x: number, y: number, summary: YearSummary): string {
  const most = Math.max(1, ...summary.byMonth.map((month) => month.listenedMs));
  const height = 130;
  return summary.byMonth
    .map((month, index) => {
      const left = x + index * 78;
      const bar = Math.max(4, Math.round((month.listenedMs / most) * height));
      const letter = MONTH_LETTERS[index] ?? '';
      return (
        `<rect x="${left}" y="${y + height - bar}" width="54" height="${bar}" rx="8" ` +
        `fill="${CARD_COLOURS.accent}" opacity="${month.listenedMs > 0 ? 1 : 0.3}"/>` +
        text(left + 27, y + height + 40, 26, letter, `fill="${CARD_COLOURS.dim}" text-anchor="middle"`)
      );
    })
    .join('');
}

/** The card as SVG: who and which year, minutes and listens, the months, the top artists and songs, the genres. */
export function yearCardSvg(summary: YearSummary, username: string): string {
  const { text: white, dim, accent } = CARD_COLOURS;
  const genres = summary.topGenres.map((genre) => genre.genre).join(' · ');
  const footer = [genres, `${grouped(summary.newArtistCount)} new artists`].filter((part) => part !== '').join('  ·  ');
  const body =
    summary.plays === 0
      ? text(80, 620, 44, `No listening in ${summary.year} yet.`, `fill="${white}"`)
      : [
          text(80, 330, 110, grouped(summary.minutes), `fill="${accent}" font-weight="bold"`),
          text(80, 385, 36, `minutes listened · ${grouped(summary.plays)} listens`, `fill="${white}"`),
          monthBars(80, 440, summary),
          list(
            80,
            690,
            'Top artists',
            summary.topArtists.map((artist) => artist.name),
          ),
          list(
            80,
            990,
            'Top songs',
            summary.topSongs.map((song) => `${song.name} — ${song.artistName}`),
          ),
          text(80, 1290, 28, clip(footer, 60), `fill="${dim}"`),
        ].join('');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${YEAR_CARD_WIDTH}" height="${YEAR_CARD_HEIGHT}" `,
    `font-family="${FONT}">`,
    '<defs><linearGradient id="ground" x1="0" y1="0" x2="1" y2="1">',
    `<stop offset="0" stop-color="${CARD_COLOURS.from}"/><stop offset="1" stop-color="${CARD_COLOURS.to}"/>`,
    '</linearGradient></defs>',
    `<rect width="${YEAR_CARD_WIDTH}" height="${YEAR_CARD_HEIGHT}" fill="url(#ground)"/>`,
    text(80, 110, 32, 'TONEARM', `fill="${dim}" letter-spacing="6"`),
    text(80, 190, 60, clip(`${username}’s ${summary.year}`, 28), `fill="${white}" font-weight="bold"`),
    body,
    '</svg>',
  ].join('');
}

/** The card as PNG, YEAR_CARD_WIDTH × YEAR_CARD_HEIGHT. */
export async function renderYearCard(summary: YearSummary, username: string): Promise<Buffer> {
  return sharp(Buffer.from(yearCardSvg(summary, username)))
    .png({ compressionLevel: 9 })
    .toBuffer();
}
