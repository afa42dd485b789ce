// Issue 27's gapless figures: runs e2e/gapless.spec.ts (the real server and player in Chromium, an album cut from one
// sine in MP3, M4A/AAC, FLAC, Opus and Ogg Vorbis pairs) and prints, per format, the longest silence and the largest
// sample step measured at the join, beside the decoded files' own step there and the sine's own. Run it alone.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const dir = mkdtempSync(path.join(tmpdir(), 'tonearm-bench-gapless-'));
const figures = path.join(dir, 'figures.json');
try {
  const result = spawnSync('npm', ['run', 'test:e2e', '--', 'e2e/gapless.spec.ts'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, GAPLESS_FIGURES: figures },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  const rows = JSON.parse(readFileSync(figures, 'utf8'));
  console.log("\n| format | silence at the join (ms) | largest step | files' own step there | sine's own step |");
  console.log('| ------ | -----------------------: | -----------: | --------------------: | --------------: |');
  for (const row of rows) {
    const cells = [row.silenceMs.toFixed(3), row.jump.toFixed(4), row.fileJump.toFixed(4), row.ownJump.toFixed(4)];
    console.log(`| ${row.format} | ${cells.join(' | ')} |`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
