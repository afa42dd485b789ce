import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Dialect } from '../db/database.js';
import type { DB } from '../db/schema.js';
import type { ImageWork } from '../modules/media/image-work.js';
import type { SetupCode } from '../modules/auth/setup-code.js';
import type { BlobStore } from '../storage/blob-store.js';

/** The Fastify instance buildApp returns: route schemas are zod schemas (contract) and types follow from them. */
export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What every feature module receives from buildApp. */
export interface AppDeps {
  config: Config;
  db: Kysely<DB>;
  dialect: Dialect;
  /** Null only in tests that do not touch media. */
  blobs: BlobStore | null;
  /** The pixel ceiling and the one gate every uploaded image of this app is decoded through. */
  images: ImageWork;
  /** The one-time code that claims the server while it has no administrator. */
  setupCode: SetupCode;
}
