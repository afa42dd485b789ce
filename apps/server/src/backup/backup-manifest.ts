import { z } from 'zod';
import { isValidBlobKey } from '../storage/blob-key.js';
import { BLOB_KINDS } from '../storage/blob-store.js';

/** Archive entry names. Blobs sit at `blobs/<kind>/<key>`, as under a local store's root (without its shards). */
export const MANIFEST_ENTRY = 'manifest.json';
export const SQLITE_ENTRY = 'database/tonearm.db';
export const POSTGRES_ENTRY = 'database/tonearm.pgdump';
export const SECRET_KEY_ENTRY = 'data/secret.key';
export const blobEntry = (kind: string, key: string) => `blobs/${kind}/${key}`;

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

const StoredFile = z.object({ entry: z.string(), size: z.number().int().nonnegative(), sha256: Sha256 });

/** A key the blob store accepts (storage/blob-key.ts): a restore refuses any other before it writes anything. */
const BlobKey = z.string().refine(isValidBlobKey, {
  error: (issue) => `${JSON.stringify(String(issue.input).slice(0, 80))} is not a valid blob key`,
});

export const BlobItem = z.object({
  kind: z.enum(BLOB_KINDS),
  key: BlobKey,
  size: z.number().int().nonnegative(),
  sha256: Sha256,
});
export type BlobItem = z.infer<typeof BlobItem>;

/** A library (docs/libraries.md): its music stays in its folder, so a backup lists it instead of holding its files. */
export const LibraryItem = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  /** The folder as the database has it (absolute). */
  path: z.string(),
  /** The files of the library the database knows (missing ones included), and their total size in bytes. */
  files: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
});
export type LibraryItem = z.infer<typeof LibraryItem>;

/**
 * manifest.json, the last entry of a backup archive: what the database snapshot is, and every blob it references with
 * its size and sha256, and every library (whose files stay in their folders). `blobs.included` says whether the blob bytes are in the archive (a local store) or only listed
 * (a remote store such as S3, whose objects stay where they are).
 */
export const BackupManifest = z.object({
  format: z.literal('tonearm-backup'),
  version: z.literal(1),
  createdAt: z.string(),
  database: StoredFile.extend({
    kind: z.enum(['sqlite', 'postgres']),
    /** The migrations applied in the snapshot, in order; the last one is its schema version. */
    migrations: z.array(z.string()),
  }),
  /** The key file of SECRET_KEY-less installs (`DATA_DIR/secret.key`), when there is one. */
  secretKey: StoredFile.nullable(),
  blobs: z.object({ included: z.boolean(), items: z.array(BlobItem) }),
  /** The libraries, whose folders a restore expects at `path` (or where it is told); none in older backups. */
  libraries: z.array(LibraryItem).default([]),
});
export type BackupManifest = z.infer<typeof BackupManifest>;
