import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config, GateAddress } from '../../config.js';
import type { App } from '../../http/app-types.js';
import { securityHeaders } from '../../plugins/security.js';
import type { SessionStore } from '../../sessions/session-store.js';
import type { MediaSources } from '../../media/media-source.js';
import { AudioEndCheck } from '../../media/audio-check.js';
import { probeFfmpeg } from './ffmpeg-probe.js';
import { createMediaHandler, type MediaHandler, type MediaHandlerOptions } from './media-handler.js';
import type { NginxOffload } from '../../media/nginx-offload.js';
import { startOffloadGate, type OffloadGate } from './offload-gate.js';
import type { GateMeter, StreamMeter, TranscodeMeter } from '../../media/media-meters.js';
import { capabilitiesRoute, mediaRoutes } from './media.routes.js';
import { TranscodeCache } from './transcode-cache.js';
import { Transcoder } from './transcoder.js';

/** A killed ffmpeg gets this long to exit on SIGTERM before SIGKILL. */
const KILL_GRACE_MS = 2000;
/** Finished transcodes, under DATA_DIR. */
export const TRANSCODE_CACHE_DIR = 'transcode-cache';

/** One probe per binary and process: tests build many apps, and a start-up needs the answer only once. */
const probes = new Map<string, Promise<string | null>>();

/**
 * `/media`'s Fastify routes for app.inject (the same handler the app puts in front of Fastify's router, DESIGN §6) and
 * `GET /api/media/capabilities`. The handler, the transcoder and the offload gate are built and closed by the
 * composition root (composition.ts); without a blob store there is no handler, and only the capabilities answer.
 */
export function registerMedia(
  app: App,
  { media, transcoding }: { media: MediaHandler | null; transcoding: boolean },
): void {
  capabilitiesRoute(app, transcoding);
  if (media !== null) mediaRoutes(app, media);
}

/** MEDIA_OFFLOAD_GATE's listener over the handler: opened when the app is ready (a taken port fails the start). */
export function offloadGate(
  address: GateAddress,
  handler: MediaHandler,
  log: FastifyBaseLogger,
  meter: GateMeter,
): { start(): Promise<void>; stop(): Promise<void> } {
  let gate: OffloadGate | null = null;
  return {
    async start() {
      gate = await startOffloadGate({ address, handOver: handler.handOver, log, meter });
    },
    async stop() {
      await gate?.close();
      gate = null;
    },
  };
}

/** `<ffmpegPath> -version`'s first line, or null; asked once per binary and process. */
function probeOnce(ffmpegPath: string): Promise<string | null> {
  let probe = probes.get(ffmpegPath);
  if (probe === undefined) {
    probe = probeFfmpeg(ffmpegPath);
    probes.set(ffmpegPath, probe);
  }
  return probe;
}

/**
 * The check an audio upload passes besides its format (the import's, audio-check.ts): with ffmpeg when FFMPEG_PATH
 * answers, so a file ffmpeg cannot decode is refused before it is stored; without, the WAV length check only.
 */
export async function uploadAudioCheck(config: Config): Promise<AudioEndCheck> {
  const { ffmpegPath } = config.transcode;
  return new AudioEndCheck((await probeOnce(ffmpegPath)) === null ? null : ffmpegPath);
}

/** The transcoder when ffmpeg answers (FFMPEG_PATH), with its cache opened; null, said once in the log, when not. */
export async function startTranscoding(
  config: Config,
  log: FastifyBaseLogger,
  meter: TranscodeMeter,
): Promise<Transcoder | null> {
  const { ffmpegPath, cacheBytes, concurrency } = config.transcode;
  const version = await probeOnce(ffmpegPath);
  if (version === null) {
    log.info(
      { ffmpegPath },
      'transcoding is off: ffmpeg was not found (install ffmpeg or set FFMPEG_PATH); ?format= serves the original audio',
    );
    return null;
  }
  const cache = new TranscodeCache(path.join(config.dataDir, TRANSCODE_CACHE_DIR), cacheBytes);
  await cache.open();
  log.info({ ffmpeg: version, concurrency, cacheBytes }, 'transcoding is on');
  return new Transcoder({ ffmpegPath, cache, concurrency, killGraceMs: KILL_GRACE_MS, log, meter });
}

/**
 * The lean /media handler over the app's media sources, session cache, security headers, logger and stream meter. Its
 * owner calls `close()` when the app closes, and `isClosing` answers true from the moment the app begins to close.
 */
export function appMediaHandler(parts: {
  sources: MediaSources;
  sessions: SessionStore;
  config: Config;
  transcoder: Transcoder | null;
  offload: NginxOffload | null;
  streams: StreamMeter;
  log: FastifyBaseLogger;
  isClosing: () => boolean;
  libraryAccess: MediaHandlerOptions['libraryAccess'];
}): MediaHandler {
  const { sources, sessions, config, transcoder, offload, streams, log, isClosing, libraryAccess } = parts;
  return createMediaHandler({
    sources,
    sessions,
    securityHeaders: securityHeaders(config),
    log,
    isClosing,
    transcoder,
    offload,
    streams,
    presign: config.storage.kind === 's3' && config.storage.presign,
    libraryAccess,
  });
}
