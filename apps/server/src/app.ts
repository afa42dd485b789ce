import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { composeApp, type ComposeOptions, type Composition } from './composition.js';
import type { Config } from './config.js';
import { installAccessPolicy } from './http/access.js';
import type { App } from './http/app-types.js';
import { installNulGuard } from './http/nul-guard.js';
import { clientErrorAnswer } from './http/request-timeouts.js';
import { installRouteTable } from './http/route-table.js';
import { serverWithFront, type RawHandler } from './http/server-factory.js';
import { installAuth } from './http/session.js';
import { generateRequestId, loggerOptions } from './logger.js';
import { registerMetrics } from './metrics/metrics.module.js';
import { timedFront } from './metrics/request-timing.js';
import { registerModules } from './modules/index.js';
import { registerMedia } from './modules/media/media.module.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import { registerHealth } from './plugins/health.js';
import { registerOpenApi } from './plugins/openapi.js';
import { registerRateLimit } from './plugins/rate-limit.js';
import { registerSecurity } from './plugins/security.js';
import { registerWebApp } from './plugins/web-app.js';
import type { BlobStore } from './storage/blob-store.js';

/** What buildApp takes: the composition root's options, with the blob store optional and the logger made if absent. */
export interface BuildAppOptions extends Omit<ComposeOptions, 'log' | 'blobs'> {
  blobs?: BlobStore | null;
  /** A ready pino logger; by default one is made from config.logLevel. */
  logger?: FastifyBaseLogger;
}

/** JSON bodies only; uploads go through multipart with their own limits. */
const JSON_BODY_LIMIT = 1024 * 1024;

/** Fastify accepts a hop count at runtime but its types do not; a hop count is "trust the nearest n proxies". */
function trustProxyOption(value: Config['trustProxy']): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}

/** Builds the whole HTTP app without listening: main.ts listens, tests use app.inject(). */
export async function buildApp(options: BuildAppOptions): Promise<App> {
  return (await buildAppWith(options)).app;
}

/** The app, and what it is made of (composition.ts): main.ts and the test harness reach its parts through this. */
export async function buildAppWith(options: BuildAppOptions): Promise<{ app: App; composition: Composition }> {
  const { config } = options;
  // Set once the parts exist; requests only arrive after listen, when it is.
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

  // Every repository, service and background job, built once; the jobs run from onReady to onClose.
  const composition = await composeApp({
    config,
    db: options.db,
    dialect: options.dialect,
    blobs: options.blobs ?? null,
    log: app.log,
    ...(options.images === undefined ? {} : { images: options.images }),
    ...(options.setupCode === undefined ? {} : { setupCode: options.setupCode }),
    ...(options.poolUse === undefined ? {} : { poolUse: options.poolUse }),
    ...(options.counters === undefined ? {} : { counters: options.counters }),
    ...(options.warmCatalogue === undefined ? {} : { warmCatalogue: options.warmCatalogue }),
    ...(options.onBuild === undefined ? {} : { onBuild: options.onBuild }),
  });
  const { services } = composition;
  app.addHook('onReady', () => composition.start());
  app.addHook('preClose', (done) => {
    composition.beginClosing();
    done();
  });
  app.addHook('onClose', () => composition.stop());

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
  await registerRateLimit(app, services.counters);
  installAuth(app, services.sessions, services.libraryAccess);
  // Before any route: every route declares its access and the guard enforces it (after the cookie parser).
  installAccessPolicy(app);
  await registerOpenApi(app);
  registerMetrics(app, config, services.metrics);

  registerHealth(app, options.db, options.dialect);
  // Before the modules, as the Subsonic API's stream answers through the same /media handler.
  registerMedia(app, services);
  media = timedFront(services.media?.handle ?? null, services.metrics?.requests ?? null);
  await registerModules(app, services);
  await registerWebApp(app, config.webDist);
  return { app, composition };
}
