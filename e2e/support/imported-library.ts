import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Writes the audio files of a folder to import (made at test time, with ffmpeg). */
export type FolderWriter = (folder: string) => Promise<void>;

/**
 * Runs the import command (`npm run import`'s script: apps/server/src/cli/import.ts) on a folder that `write` fills,
 * into the DATA_DIR and database a server is about to start on. The command exits non-zero when a file fails, so a
 * spec never plays from a half-imported library. Answers what the command printed.
 */
export async function importLibraryAt(
  where: { dataDir: string; databaseUrl?: string | null },
  write: FolderWriter,
): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'tonearm-e2e-import-'));
  try {
    await write(folder);
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/import.ts', folder], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: where.dataDir, DATABASE_URL: where.databaseUrl ?? '', INIT_CWD: ROOT },
    });
    if (!stdout.includes(': 0 updated, 0 skipped, 0 failed.')) throw new Error(`The import left files out:\n${stdout}`);
    return stdout;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
