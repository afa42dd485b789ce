import path from 'node:path';
import type { Config, GateAddress } from '../../config.js';
import type { App } from '../../http/app-types.js';
import { securityHeaders } from '../../plugins/security.js';
import type { SessionStore } from '../../sessions/session-store.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { AudioEndCheck } from './audio-check.js';
import { probeFfmpeg } from './ffmpeg-probe.js';
import { createMediaHandler, type MediaHandler } from './media-handler.js';
import type { NginxOffload } from './nginx-offload.js';
import { startOffloadGate, type OffloadGate } from './offload-gate.js';
import type { GateMeter, MediaMeters, StreamMeter, TranscodeMeter } from './media-meters.js';
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
 * `/media`: the lean handler the app puts in front of Fastify's router (answered before routing, DESIGN §6), and its
 * Fastify routes for app.inject, plus `GET /api/media/capabilities`. Answers the handler (its raw `handle` for the
 * server factory, `serveAudio` for the Subsonic API's stream); null without a blob store. Takes its deps by shape (the app's AppDeps fit): media sits below the shared module
 * deps, which use its types.
 */
export async function registerMedia(
  app: App,
  {
    blobs,
    sessions,
    config,
    offload,
    meters,
  }: {
    blobs: BlobStore | null;
    sessions: SessionStore;
    config: Config;
    offload: NginxOffload | null;
    meters: MediaMeters;
  },
): Promise<MediaHandler | null> {
  const transcoder = blobs === null ? null : await startTranscoding(app, config, meters.transcodes);
  capabilitiesRoute(app, transcoder !== null);
  if (blobs === null) return null;
  const handler = mediaHandler(app, { store: blobs, sessions, config, transcoder, offload, streams: meters.streams });
  mediaRoutes(app, handler);
  const gate = config.mediaOffload?.gate ?? null;
  if (gate !== null && offload !== null) openGate(app, gate, handler, meters.gate);
  return handler;
}

/** MEDIA_OFFLOAD_GATE: listens when the app is ready (a taken port fails the start), closes with the app. */
function openGate(app: App, address: GateAddress, handler: MediaHandler, meter: GateMeter): void {
  let gate: OffloadGate | null = null;
  app.addHook('onReady', async () => {
    gate = await startOffloadGate({ address, handOver: handler.handOver, log: app.log, meter });
  });
  app.addHook('onClose', async () => {
    await gate?.close();
  });
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
async function startTranscoding(app: App, config: Config, meter: TranscodeMeter): Promise<Transcoder | null> {
  const { ffmpegPath, cacheBytes, concurrency } = config.transcode;
  const version = await probeOnce(ffmpegPath);
  if (version === null) {
    app.log.info(
      { ffmpegPath },
      'transcoding is off: ffmpeg was not found (install ffmpeg or set FFMPEG_PATH); ?format= serves the original audio',
    );
    return null;
  }
  const cache = new TranscodeCache(path.join(config.dataDir, TRANSCODE_CACHE_DIR), cacheBytes);
  await cache.open();
  app.log.info({ ffmpeg: version, concurrency, cacheBytes }, 'transcoding is on');
  return new Transcoder({ ffmpegPath, cache, concurrency, killGraceMs: KILL_GRACE_MS, log: app.log, meter });
}

/** The lean /media handler over the app's blob store, session cache, security headers, logger and stream meter. */
function mediaHandler(
  app: App,
  parts: {
    store: BlobStore;
    sessions: SessionStore;
    config: Config;
    transcoder: Transcoder | null;
    offload: NginxOffload | null;
    streams: StreamMeter;
  },
): MediaHandler {
  const { store, sessions, config, transcoder, offload, streams } = parts;
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  const handler = createMediaHandler({
    store,
    sessions,
    securityHeaders: securityHeaders(config),
    log: app.log,
    isClosing: () => closing,
    transcoder,
    offload,
    streams,
    presign: config.storage.kind === 's3' && config.storage.presign,
  });
  app.addHook('onClose', (_instance, done) => {
    handler.close();
    done();
  });
  return handler;
}
