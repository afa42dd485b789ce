import { BackupError } from '../backup/backup-error.js';
import { PostgresToolError } from '../backup/postgres-tools.js';
import { ConfigError } from '../config.js';

/**
 * Runs `npm run backup`, `npm run restore` (or another such command) and sets the exit code: its own code, 2 for a configuration error (one
 * line), 1 for a failure (`<what> failed: …`, with the stack only when the error is not one of ours).
 */
export function runBackupCommand(what: string, main: () => Promise<number>): void {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      if (error instanceof ConfigError) {
        console.error(error.message);
        process.exitCode = 2;
        return;
      }
      const known = error instanceof BackupError || error instanceof PostgresToolError;
      console.error(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!known && error instanceof Error && error.stack) console.error(error.stack);
      process.exitCode = 1;
    },
  );
}
