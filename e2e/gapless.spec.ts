import { writeFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { apiSession, logIn, newAccount, registerAccount } from './support/pages/accounts.js';
import { useTonearmServer } from './support/pages/tonearm-spec.js';
import {
  decodeReference,
  figures,
  GAPLESS_ALBUM,
  PAIR_FORMATS,
  recording,
  startRecording,
  TRACK_SAMPLES,
  trackFile,
  writeGaplessAlbum,
  type JoinFigures,
} from './support/gapless-audio.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Samples either side of a join that are looked at. */
const WINDOW = 1500;
/** Over the signal's own largest step (or the decoded files' own at the join, for lossy codecs): rounding room. */
const JUMP_TOLERANCE = 1.25;

// The recorder's worklet module is a blob: URL, which the app's content security policy (script-src 'self') refuses;
// the policy is lifted for this measuring page only (the player's code is the same).
test.use({ bypassCSP: true });

const server = useTonearmServer({
  demo: false,
  library: { songs: 0, database: 'sqlite', imported: writeGaplessAlbum },
});

interface Row extends JoinFigures {
  format: string;
  /**
   * The decoded files' own step at the join, at the recording's level (a lossy codec rebuilds a cut's edges
   * imperfectly: its ringing is in the files, not the player's doing).
   */
  fileJump: number;
  /** The sine's largest step away from any join. */
  ownJump: number;
}

/**
 * The two files of a pair decoded and put end to end (what a perfect gapless player outputs): the step at the join,
 * and the sine's own largest step away from it (the recording's level may differ: the steps are compared as ratios).
 */
async function referenceJoin(index: number): Promise<{ join: JoinFigures; own: JoinFigures }> {
  const folder = await mkdtemp(path.join(tmpdir(), 'tonearm-gapless-ref-'));
  try {
    await writeGaplessAlbum(folder);
    const first = await decodeReference(trackFile(folder, index));
    const second = await decodeReference(trackFile(folder, index + 1));
    const joined = new Float32Array(2 * WINDOW);
    joined.set(first.subarray(first.length - WINDOW), 0);
    joined.set(second.subarray(0, WINDOW), WINDOW);
    return { join: figures(joined, 0, joined.length, 44_100), own: figures(first, 10_000, 40_000, 44_100) };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

test('an album cut from one recording plays as one: no silence, no click at any join, in every format', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const listener = newAccount('gapless');
  await registerAccount(server.baseURL, listener);
  const api = await apiSession(server.baseURL, listener);
  const albums = (await (await api.get(`/api/albums?q=${encodeURIComponent(GAPLESS_ALBUM)}`)).json()) as {
    items: { id: number }[];
  };
  await api.dispose();
  const albumId = albums.items[0]?.id;
  expect(albumId).toBeDefined();

  await logIn(page, listener);
  await page.goto(`/dashboard/album?id=${albumId}`);
  await expect(page.getByRole('heading', { level: 1, name: GAPLESS_ALBUM })).toBeVisible();
  await startRecording(page);
  await page.getByRole('button', { name: 'Play album', exact: true }).click();
  const tracks = PAIR_FORMATS.length * 2;
  // The last track plays to its end: the player stops (nothing follows in the queue).
  await expect(page.getByRole('region', { name: 'Player' }).getByText('OGG two')).toBeVisible({ timeout: 30_000 });
  await expect
    .poll(async () => (await recording(page)).samples.length, { timeout: 30_000, intervals: [500] })
    .toBeGreaterThanOrEqual(tracks * TRACK_SAMPLES - 4096);
  await page.waitForTimeout(500);
  const { samples, rate } = await recording(page);
  expect(rate).toBe(44_100);
  const whole = figures(samples, 0, samples.length, rate);
  console.log(
    `recorded ${String(samples.length)} samples for ${String(tracks * TRACK_SAMPLES)}; longest silence anywhere ` +
      `${whole.silenceMs.toFixed(3)} ms`,
  );
  // Every sample of every track played once, give or take a render quantum's rounding at the start and end.
  expect(Math.abs(samples.length - tracks * TRACK_SAMPLES)).toBeLessThan(512);

  const rows: Row[] = [];
  for (const [pair, format] of PAIR_FORMATS.entries()) {
    const at = (2 * pair + 1) * TRACK_SAMPLES;
    const join = figures(samples, at - WINDOW, at + WINDOW, rate);
    const own = figures(samples, at - 30_000, at - 5_000, rate);
    const file = await referenceJoin(2 * pair);
    const scale = own.jump / file.own.jump;
    rows.push({ format, ...join, fileJump: file.join.jump * scale, ownJump: own.jump });
  }
  const lines = rows.map(
    (row) =>
      `${row.format.padEnd(5)} silence ${row.silenceMs.toFixed(3)} ms, jump ${row.jump.toFixed(4)} ` +
      `(files' own at the join ${row.fileJump.toFixed(4)}, sine's own ${row.ownJump.toFixed(4)})`,
  );
  console.log(`Gapless joins in Chromium (sine ${String(rate)} Hz, amplitude 0.125):\n${lines.join('\n')}`);
  if (process.env.GAPLESS_FIGURES) await writeFile(process.env.GAPLESS_FIGURES, JSON.stringify(rows));
  for (const row of rows) {
    expect(row.silenceMs, `${row.format}: silence at the join`).toBeLessThan(1);
    expect(row.jump, `${row.format}: step at the join`).toBeLessThanOrEqual(
      Math.max(row.fileJump, row.ownJump) * JUMP_TOLERANCE,
    );
  }
});
