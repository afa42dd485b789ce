import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Config } from './config.js';
import type { Dialect, PoolUse } from './db/database.js';
import type { DB } from './db/schema.js';
import { installAccessPolicy } from './http/access.js';
import type { App } from './http/app-types.js';
import { installNulGuard } from './http/nul-guard.js';
import { clientErrorAnswer } from './http/request-timeouts.js';
import { installRouteTable } from './http/route-table.js';
import { serverWithFront, type RawHandler } from './http/server-factory.js';
import { installAuth } from './http/session.js';
import { generateRequestId, loggerOptions } from './logger.js';
import { createMetrics, registerMetrics } from './metrics/metrics.module.js';
import { timedFront } from './metrics/request-timing.js';
import { registerModules } from './modules/index.js';
import { createImageWork, type ImageWork } from './modules/media/image-work.js';
import { NO_MEDIA_METERS } from './modules/media/media-meters.js';
import { registerMedia } from './modules/media/media.module.js';
import { nginxOffloadFor } from './modules/media/nginx-offload.js';
import type { AppDeps } from './modules/shared-deps.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import { registerHealth } from './plugins/health.js';
import { registerOpenApi } from './plugins/openapi.js';
import { registerRateLimit } from './plugins/rate-limit.js';
import { countersFor } from './counters/counters-for.js';
import { registerSecurity } from './plugins/security.js';
import { registerWebApp } from './plugins/web-app.js';
import { SessionStore, sessionCacheMsFor } from './sessions/session-store.js';
import { createSessionsRepository } from './sessions/sessions.repository.js';
import { SetupCode } from './setup-code.js';
import type { BlobStore } from './storage/blob-store.js';
import type { CounterStore } from './counters/counter-store.js';

export interface BuildAppOptions {
  config: Config;
  db: Kysely<DB>;
  dialect: Dialect;
  blobs?: BlobStore | null;
  /** A ready pino logger; by default one is made from config.logLevel. */
  logger?: FastifyBaseLogger;
  /** The image gate and pixel ceiling; by default made from config.limits (tests pass their own to hold the gate). */
  images?: ImageWork;
  /** The server's one-time setup code (main.ts prints it); a fresh random one by default. */
  setupCode?: SetupCode;
  /** The database pool's use, for /metrics (createDatabase's poolUse); none by default. */
  poolUse?: () => PoolUse | null;
  /** Where rate limits and sign-in failures are counted; by default chosen by the dialect (countersFor). */
  counters?: CounterStore;
}

/** JSON bodies only; uploads go through multipart with their own limits. */
const JSON_BODY_LIMIT = 1024 * 1024;

/** Fastify accepts a hop count at runtime but its types do not; a hop count is "trust the nearest n proxies". */
function trustProxyOption(value: Config['trustProxy']): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}

/** Builds the whole HTTP app without listening: main.ts listens, tests use app.inject(). */
export async function buildApp(options: BuildAppOptions): Promise<App> {
  const { config } = options;
  const metrics = await createMetrics(config, options.poolUse ?? (() => null));
  const deps: AppDeps = {
    config,
    db: options.db,
    dialect: options.dialect,
    blobs: options.blobs ?? null,
    offload: nginxOffloadFor(config, options.blobs ?? null),
    images: options.images ?? createImageWork(config.limits),
    setupCode: options.setupCode ?? new SetupCode(),
    sessions: new SessionStore(createSessionsRepository(options.db), {
      ttlSeconds: config.sessionTtlSeconds,
      idleSeconds: config.sessionIdleSeconds,
      maxPerUser: config.limits.sessionsPerUser,
      cacheMs: sessionCacheMsFor(options.dialect),
    }),
    meters: metrics?.meters ?? NO_MEDIA_METERS,
    counters: options.counters ?? countersFor(options.db, options.dialect),
  };
  // Made once the logger exists; requests only arrive after listen, when it is set.
  let media: RawHandler | null = null;
  const app = Fastify({
    // /media is answered on node:http before Fastify's router: audio bytes are the hot path (DESIGN §6).
    serverFactory: serverWithFront(() => media, config.timeouts),
    // Node's whole-request backstop (uploads included) and keep-alive; the headers timeout and the body deadlines are
    // set by the server factory (http/request-timeouts.ts). Fastify's own default requestTimeout is 0: none.
    requestTimeout: config.timeouts.uploadMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
    clientErrorHandler: clientErrorAnswer,
    ...(options.logger ? { loggerInstance: options.logger } : { logger: loggerOptions(config) }),
    genReqId: generateRequestId,
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: JSON_BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  // First of all, so the table sees every route any plugin or module registers.
  installRouteTable(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  installNulGuard(app);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  registerSecurity(app, config);
  await app.register(cookie);
  // Compressible text only (JSON, HTML, JS, CSS); audio and images are already compressed. Media routes opt out with
  // `compress: false` so Range answers are never re-encoded.
  await app.register(compress, { global: true, encodings: ['br', 'gzip'], threshold: 1024 });
  await registerRateLimit(app, deps.counters);
  installAuth(app, deps.sessions);
  // Before any route: every route declares its access and the guard enforces it (after the cookie parser).
  installAccessPolicy(app);
  await registerOpenApi(app);
  registerMetrics(app, config, metrics);

  registerHealth(app, options.db, options.dialect);
  // Before the modules: the Subsonic API's stream answers through the same /media handler.
  const mediaHandler = await registerMedia(app, deps);
  media = timedFront(mediaHandler?.handle ?? null, metrics?.requests ?? null);
  await registerModules(app, deps, mediaHandler);
  await registerWebApp(app, config.webDist);
  return app;
}
