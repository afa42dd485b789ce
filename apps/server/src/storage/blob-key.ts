/**
 * Blob keys become file names (local store) or object names (S3), so only a small, path-safe alphabet is allowed:
 * lowercase letters, digits, `.`, `_` and `-`, starting with a letter or digit (no `.`/`..`, no hidden files, no
 * separators), at most 200 characters.
 */
const BLOB_KEY = /^[a-z0-9][a-z0-9._-]{0,199}$/;

export function isValidBlobKey(key: string): boolean {
  return BLOB_KEY.test(key);
}

/**
 * Thrown by store operations that address a blob by an invalid key (openRead, delete, commit, localPath). A key that
 * came from a URL and fails validation names no blob: callers answer 404 (`stat` already returns null for it).
 */
export class InvalidBlobKeyError extends Error {
  readonly code = 'invalid-blob-key';

  constructor(readonly key: string) {
    super(`Invalid blob key: ${JSON.stringify(key.slice(0, 80))}`);
    this.name = 'InvalidBlobKeyError';
  }
}

export function assertValidBlobKey(key: string): void {
  if (!isValidBlobKey(key)) throw new InvalidBlobKeyError(key);
}
